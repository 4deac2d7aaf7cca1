/**
 * The local Temporal dev server: `npm run dev-server -- start|stop|status`, and
 * `startDevServer` / `stopDevServer` for `npm start`. Loopback only, state in `.data/temporal/`
 * (workflows survive a restart), the project's search attributes registered, run detached with a
 * pid file. Its Web UI decodes through the embedded codec server (`--ui-codec-endpoint`); one
 * started without it is reported by {@link DevServerInfo.uiCodecEndpoint}: restart it to change it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { embeddedCodecEndpoint, uiCodecEndpointArgs } from '../../platform/codec/embedded';
import { cardflowSearchAttributes } from '../../domain/search-attributes';
import { repoRoot, resolveTemporalCli, searchAttributeArgs } from './lib/temporal-cli';
import { processEnv } from '../../platform/config/process-env';
import { configured, type ConfigurationSlice, readConfiguration } from '../../platform/config/schema';
import { exitCodeFor, failureMessage, loadConfiguration } from '../../platform/config/startup';

/** Everything the dev server writes: database, log, pid file. Git-ignored (`.data/`). */
export const devServerDataDir = path.join(repoRoot, '.data', 'temporal');
const pidFile = path.join(devServerDataDir, 'dev-server.pid');
const stateFile = path.join(devServerDataDir, 'dev-server.json');
const logFile = path.join(devServerDataDir, 'dev-server.log');

export interface DevServerOptions {
  /** Frontend gRPC port; default `CARDFLOW_TEMPORAL_PORT`. */
  port?: number;
  /** Web UI port; default `CARDFLOW_TEMPORAL_UI_PORT`. */
  uiPort?: number;
  /** SQLite file; default `.data/temporal/dev-server.sqlite`. */
  dbFilename?: string;
  /** CLI binary; default from `tools/scripts/temporal-cli.sh`. */
  cliPath?: string;
  /** How long to wait for the frontend to answer; default 60 s. */
  readyTimeoutMs?: number;
  /**
   * Codec server the Web UI decodes payloads through; default {@link embeddedCodecEndpoint};
   * `false`: none.
   */
  uiCodecEndpoint?: string | false;
  /** Further `temporal server start-dev` arguments. */
  extraArgs?: readonly string[];
  /** The ports' and the codec endpoint's variables, as the entry point read them. */
  configuration?: ConfigurationSlice<
    'CARDFLOW_TEMPORAL_PORT' | 'CARDFLOW_TEMPORAL_UI_PORT' | 'CARDFLOW_CODEC_SERVER_PORT'
  >;
}

export interface DevServerInfo {
  pid: number;
  /** `127.0.0.1:<port>`, for `Connection.connect({ address })`. */
  address: string;
  uiUrl: string;
  /**
   * The codec server its Web UI uses (`--ui-codec-endpoint`); undefined when started without one.
   */
  uiCodecEndpoint?: string;
  /** True when a server started earlier was already running and is reused. */
  reused: boolean;
}

/** The process's arguments (Linux `/proc`), or undefined where that is not readable. */
function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and is a Temporal dev server (guards against a reused pid). */
function isDevServerProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return commandLine(pid)?.includes('start-dev') ?? true;
}

function readRunning(): DevServerInfo | undefined {
  if (!existsSync(stateFile)) return undefined;
  const info = JSON.parse(readFileSync(stateFile, 'utf8')) as DevServerInfo;
  if (!isDevServerProcess(info.pid)) return undefined;
  // The process's own arguments beat the state file (which a server of an older checkout wrote
  // without the field).
  const args = commandLine(info.pid);
  const at = args?.indexOf('--ui-codec-endpoint') ?? -1;
  const uiCodecEndpoint = args ? (at >= 0 ? args[at + 1] : undefined) : info.uiCodecEndpoint;
  const { uiCodecEndpoint: _recorded, ...rest } = info;
  return { ...rest, ...(uiCodecEndpoint ? { uiCodecEndpoint } : {}), reused: true };
}

/** Resolves once the frontend serves the `default` namespace, or throws after `timeoutMs`. */
export async function waitForFrontend(address: string, timeoutMs: number, exited?: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (exited?.()) throw new Error(`the dev server exited during startup; see ${logFile}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.describeNamespace({ namespace: 'default' });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
    }
    await sleep(250);
  }
  throw new Error(
    `the Temporal frontend at ${address} did not answer within ${timeoutMs} ms (${String(lastError)}); see ${logFile}`,
  );
}

/** Starts the dev server (or reuses the running one) and resolves when its frontend answers. */
export async function startDevServer(opts: DevServerOptions = {}): Promise<DevServerInfo> {
  const running = readRunning();
  if (running) return running;

  const config = opts.configuration ?? {};
  const port = opts.port ?? configured(config, 'CARDFLOW_TEMPORAL_PORT');
  const uiPort = opts.uiPort ?? configured(config, 'CARDFLOW_TEMPORAL_UI_PORT');
  const cliPath = opts.cliPath ?? (await resolveTemporalCli());
  const uiCodecEndpoint =
    opts.uiCodecEndpoint === undefined ? embeddedCodecEndpoint(config) : opts.uiCodecEndpoint || undefined;
  mkdirSync(devServerDataDir, { recursive: true });
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--ui-port',
    String(uiPort),
    '--db-filename',
    opts.dbFilename ?? path.join(devServerDataDir, 'dev-server.sqlite'),
    '--log-level',
    'warn',
    ...searchAttributeArgs(cardflowSearchAttributes),
    ...(uiCodecEndpoint ? uiCodecEndpointArgs(uiCodecEndpoint) : []),
    ...(opts.extraArgs ?? []),
  ];
  const log = openSync(logFile, 'a');
  const child = spawn(cliPath, args, { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  let exited = false;
  child.once('exit', () => (exited = true));
  if (child.pid === undefined) throw new Error(`could not start ${cliPath}; see ${logFile}`);
  const info: DevServerInfo = {
    pid: child.pid,
    address: `127.0.0.1:${port}`,
    uiUrl: `http://127.0.0.1:${uiPort}`,
    ...(uiCodecEndpoint ? { uiCodecEndpoint } : {}),
    reused: false,
  };
  writeFileSync(pidFile, `${child.pid}\n`);
  writeFileSync(stateFile, `${JSON.stringify(info)}\n`);
  try {
    await waitForFrontend(info.address, opts.readyTimeoutMs ?? 60_000, () => exited);
  } catch (error) {
    await stopDevServer();
    throw error;
  }
  child.unref();
  return info;
}

/**
 * Stops the running dev server: SIGTERM, up to 10 s for a clean exit, then SIGKILL. False if none
 * ran.
 */
export async function stopDevServer(): Promise<boolean> {
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN;
  const alive = Number.isInteger(pid) && pid > 0 && isDevServerProcess(pid);
  if (alive) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (isDevServerProcess(pid) && Date.now() < deadline) await sleep(100);
    if (isDevServerProcess(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile, { force: true });
  rmSync(stateFile, { force: true });
  return alive;
}

/** The running dev server, if any. */
export function devServerStatus(): DevServerInfo | undefined {
  return readRunning();
}

function describeCodec(info: DevServerInfo): string {
  return info.uiCodecEndpoint
    ? `UI codec endpoint ${info.uiCodecEndpoint}`
    : 'UI without codec endpoint (restart: npm run dev-server -- stop, then start)';
}

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'start': {
      const configuration = loadConfiguration(() => readConfiguration(processEnv(), { withoutInterlock: true }));
      const info = await startDevServer({ configuration });
      console.log(
        `${info.reused ? 'already running' : 'started'}: pid ${info.pid}, frontend ${info.address}, Web UI ${info.uiUrl}, ${describeCodec(info)}`,
      );
      return 0;
    }
    case 'stop':
      console.log((await stopDevServer()) ? 'stopped' : 'not running');
      return 0;
    case 'status': {
      const info = devServerStatus();
      console.log(
        info
          ? `running: pid ${info.pid}, frontend ${info.address}, Web UI ${info.uiUrl}, ${describeCodec(info)}`
          : 'not running',
      );
      return info ? 0 : 3;
    }
    default:
      console.error('usage: npm run dev-server -- start|stop|status');
      return 2;
  }
}

if (require.main === module) {
  main(process.argv[2]).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(`dev-server: ${failureMessage(error)}`);
      process.exitCode = exitCodeFor(error);
    },
  );
}

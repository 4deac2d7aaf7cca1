/**
 * What the bench phases that measure a compiled worker in a process of its own share: the worker
 * as production runs it (`npm run build`, then `node dist/workers/main.js` with the prebuilt
 * workflow bundle), and the parts that stay in the bench process beside it: a sandbox without
 * delays, the webhook receiver, a client with the codec, and the environment a worker of theirs
 * starts with.
 */
import { Client, Connection, type DataConverter } from '@temporalio/client';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDataConverter } from '../../platform/codec/data-converter';
import { KEYS_ENV, parseKeyList } from '../../platform/codec/keys';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../sandbox/index';
import { startWebhookReceiver, type WebhookReceiver } from '../../webhooks/receiver';
import { createFileRouteStore } from '../../platform/storage/route-store';
import { say } from './harness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The compiled worker as production runs it (`npm run build`: dist/ and the prebuilt workflow
 * bundle).
 */
const COMPILED_WORKER = path.join(__dirname, '../../dist/workers/main.js');

/** Whether this bench run built dist/ already: the sources do not change while it runs. */
let built = false;

/**
 * Builds dist/ from the current sources, once per bench run, so the figure is the code's as checked
 * out.
 */
export function buildWorker(): void {
  if (built) return;
  say('    building the compiled worker (npm run build)');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: path.join(__dirname, '../..'), stdio: 'ignore' });
  built = true;
}

/**
 * Starts the compiled worker in its own process and resolves once it polls. BENCH_WORKER_NODE runs
 * it on another node binary (Node 24's, say) than the bench's.
 */
export async function startWorkerProcess(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.env.BENCH_WORKER_NODE ?? process.execPath, [COMPILED_WORKER], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('polling')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${output}`)));
  });
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

export async function stopWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
}

/** The bench process's side of a phase whose workers run in processes of their own. */
export interface ProcessStack {
  connection: Connection;
  dataConverter: DataConverter;
  /** A client with the codec the workers are given. */
  client: Client;
  sandbox: RunningSandbox;
  /**
   * What every worker process of the phase starts with (this process's environment, the
   * sandbox's, the dev server and the codec keys), before its task queue and settings of its own.
   */
  workerEnv: NodeJS.ProcessEnv;
  /** Stops the receiver and the sandbox, closes the connection and removes the data folder. */
  stop(): Promise<void>;
}

/**
 * The webhook receiver of a phase whose workers run in processes of their own, webhooks of
 * `sandbox` pointed at it: its delivery log in `dataDir`, and the phase's own route folder
 * (`routeDir`, to hand the workers as CARDFLOW_ROUTE_DIR), so it finds what they record.
 */
export async function startPhaseReceiver(
  sandbox: RunningSandbox,
  client: Client,
  dataDir: string,
): Promise<{ receiver: WebhookReceiver; routeDir: string }> {
  const routeDir = path.join(dataDir, 'routes');
  const receiver = await startWebhookReceiver({
    platformPublicKey: sandbox.keys.platform.publicKey,
    client,
    routes: createFileRouteStore({ dir: routeDir }),
    dataDir,
  });
  sandbox.setWebhookUrl(receiver.url);
  return { receiver, routeDir };
}

/** Starts a phase's sandbox, webhook receiver and client against the dev server at `address`. */
export async function startProcessStack(address: string, dataDirPrefix: string): Promise<ProcessStack> {
  const codecKeys = `bench:${randomBytes(32).toString('base64')}`;
  const dataConverter = createDataConverter(parseKeyList(codecKeys));
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, dataConverter });
  const sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'real', seed: Math.floor(Math.random() * 2 ** 31) });
  const dataDir = mkdtempSync(path.join(tmpdir(), dataDirPrefix));
  const { receiver, routeDir } = await startPhaseReceiver(sandbox, client, dataDir);
  const workerEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...sandbox.env,
    CARDFLOW_ENV: 'sandbox',
    // The phases measure onboardings, not the reconciliation schedule's runs.
    CARDFLOW_RECONCILE_SCHEDULE: '0',
    CARDFLOW_ROUTE_DIR: routeDir,
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: 'default',
    [KEYS_ENV]: codecKeys,
  };
  return {
    connection,
    dataConverter,
    client,
    sandbox,
    workerEnv,
    async stop() {
      await receiver.stop();
      await sandbox.stop();
      await connection.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `npm run cluster`: the production topology on one machine, on loopback: a throwaway PostgreSQL,
 * the Temporal cluster on it (frontend, matching, worker service, two history hosts), the
 * sandbox, two workers, two receivers behind haproxy, the codec server; logs under one printed
 * temp folder; Ctrl-C stops everything, clients first. The Web UI ships only as an image: point
 * one at the printed frontend and codec server with the run's `ui` certificate (its reader role:
 * docs/operations.md). The printed environment is an operator's certificate and token.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../lib/free-port';
import { setUpCardflowDatabase } from './cardflow-database';
import { startPostgres } from './postgres';
import { ProcessGroup, waitUntil } from './processes';
import { startServices } from './services';
import { startTemporalCluster } from './temporal-cluster';
import { temporalCallerEnv } from './temporal-auth';
import { entryPointArgs } from '../../../platform/config/command-line';

const ROOT = join(__dirname, '../../..');
const NAMESPACE = 'cardflow';

/** The `KEY=value` lines of the env file the sandbox writes for cardflow processes. */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

async function main(): Promise<void> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-cluster-'));
  const group = new ProcessGroup(dir);
  let stopping: Promise<void> | undefined;
  const stop = (why: string) => {
    stopping ??= (async () => {
      console.log(`cluster: ${why}, stopping every process...`);
      await group.stopAll();
      console.log(`cluster: stopped (logs in ${dir})`);
    })();
    return stopping;
  };
  process.once('SIGINT', () => void stop('SIGINT').then(() => process.exit(130)));
  process.once('SIGTERM', () => void stop('SIGTERM').then(() => process.exit(143)));
  try {
    console.log(`cluster: logs in ${dir}`);
    const pg = await startPostgres(group, join(dir, 'postgresql'));
    console.log(`cluster: PostgreSQL on ${pg.host}:${pg.port}`);
    const temporal = await startTemporalCluster(group, pg, {
      namespace: NAMESPACE,
      tlsDir: join(dir, 'temporal-tls'),
      authDir: join(dir, 'temporal-auth'),
    });
    console.log(`cluster: Temporal frontend on ${temporal.address}, namespace ${NAMESPACE}`);

    const webhookPort = await freePort();
    const sandboxPort = await freePort();
    const keysDir = join(dir, 'sandbox-keys');
    const sandbox = group.spawn({
      name: 'sandbox',
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        join(ROOT, 'tools/sandbox/cli.ts'),
        '--port',
        String(sandboxPort),
        '--keys-dir',
        keysDir,
        '--webhook-url',
        `http://127.0.0.1:${webhookPort}/webhooks`,
      ],
      cwd: ROOT,
    });
    const envFile = join(keysDir, '.env');
    await waitUntil('the sandbox listening', async () => existsSync(envFile), { process: sandbox });
    const providerEnv = readEnvFile(envFile);

    const codecKeys = `cluster:${randomBytes(32).toString('base64')}`;
    const databaseUrl = await setUpCardflowDatabase(pg);
    const services = await startServices(group, {
      dir,
      temporalAddress: temporal.address,
      temporalTlsDir: temporal.tlsDir,
      temporalAuthDir: temporal.authDir,
      namespace: NAMESPACE,
      databaseUrl,
      codecKeys,
      providerEnv,
      webhookPort,
      // Every process serves Prometheus metrics on a port of its own (docs/observability.md).
      metrics: {},
      codecServer: true,
    });
    console.log(
      [
        `cluster: up in ${Math.round((Date.now() - started) / 1000)} s`,
        `  sandbox (provider)     ${providerEnv.CARDFLOW_PROVIDER_BASE_URL}`,
        `  webhooks (haproxy)     ${services.webhookUrl} -> ${services.receivers.length} receivers`,
        `  workers                ${services.workers.length} on one task queue`,
        `  codec server           ${services.codecServerUrl}`,
        `  cardflow's database    ${databaseUrl}`,
        `  metrics (/metrics)     ${[...services.metricsTargets.map((t) => `${t.name} ${t.address}`), ...Object.entries(temporal.metricsTargets).map(([host, address]) => `temporal-${host} ${address}`)].join(', ')}`,
        'to drive it from another terminal:',
        `  export TEMPORAL_ADDRESS=${temporal.address} TEMPORAL_NAMESPACE=${NAMESPACE} CARDFLOW_CODEC_KEYS='${codecKeys}'`,
        `  export ${Object.entries(temporalCallerEnv(temporal, 'operator'))
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
        `  set -a; . ${envFile}; set +a; npx cardflow --help`,
        'Ctrl-C stops everything.',
      ].join('\n'),
    );
  } catch (error) {
    console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`);
    await stop('start failed');
    process.exit(1);
  }
}

entryPointArgs({
  name: 'npm run cluster',
  summary:
    'the production topology on this machine: PostgreSQL, a Temporal cluster on it, the sandbox, two workers, two webhook receivers behind haproxy, the codec server; Ctrl-C stops it',
});
void main();

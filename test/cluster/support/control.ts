/**
 * The cluster tier's one Temporal cluster is started by the global setup, in jest's parent process,
 * which alone owns its processes. Tests reach it through this small loopback endpoint to inflict
 * the faults a deployment meets: SIGKILL a history host and start it again, restart PostgreSQL,
 * back it up and restore it over destroyed data. Addresses travel to the test processes in
 * environment variables.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BackupTaken, RunningPostgres } from '../../../tools/scripts/cluster/postgres';
import {
  type HistoryHost,
  type HostName,
  HOSTS,
  type RunningTemporalCluster,
} from '../../../tools/scripts/cluster/temporal-cluster';

export const CLUSTER_ENV = {
  address: 'CARDFLOW_CLUSTER_TEMPORAL_ADDRESS',
  /**
   * The cluster's CA and client certificates (mutual TLS; tools/scripts/cluster/temporal-tls.ts).
   */
  tlsDir: 'CARDFLOW_CLUSTER_TEMPORAL_TLS_DIR',
  /**
   * The cluster's JWKS document and every caller's token (roles;
   * tools/scripts/cluster/temporal-auth.ts).
   */
  authDir: 'CARDFLOW_CLUSTER_TEMPORAL_AUTH_DIR',
  namespace: 'CARDFLOW_CLUSTER_TEMPORAL_NAMESPACE',
  databaseUrl: 'CARDFLOW_CLUSTER_DATABASE_URL',
  /** Temporal's own database, as its administrator (cardflow's role may not open it). */
  temporalDatabaseUrl: 'CARDFLOW_CLUSTER_TEMPORAL_DATABASE_URL',
  control: 'CARDFLOW_CLUSTER_CONTROL_URL',
  /** The folder of the cluster's logs (`temporal-<host>.log`, ...). */
  logDir: 'CARDFLOW_CLUSTER_LOG_DIR',
  /** `host:port` of each Temporal host's Prometheus metrics, comma-separated. */
  temporalMetrics: 'CARDFLOW_CLUSTER_TEMPORAL_METRICS',
  /** Each history host's gRPC address, as `history-a=host:port,history-b=host:port`. */
  historyHosts: 'CARDFLOW_CLUSTER_HISTORY_HOSTS',
} as const;

export interface ClusterSettings {
  address: string;
  tlsDir: string;
  authDir: string;
  namespace: string;
  databaseUrl: string;
  temporalDatabaseUrl: string;
  controlUrl: string;
}

/**
 * A variable the global setup set; throws when the tier was not run through jest's `cluster`
 * project.
 */
function read(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this file with jest --selectProjects cluster`);
  return value;
}

/** Each history host's gRPC address, as the global setup passed it on. */
export function historyHostAddresses(): Record<HistoryHost, string> {
  const listed = read(CLUSTER_ENV.historyHosts);
  return Object.fromEntries(listed.split(',').map((entry) => entry.split('='))) as Record<HistoryHost, string>;
}

/**
 * The cluster the global setup started; throws when the tier was not run through jest's `cluster`
 * project.
 */
export function clusterSettings(): ClusterSettings {
  return {
    address: read(CLUSTER_ENV.address),
    tlsDir: read(CLUSTER_ENV.tlsDir),
    authDir: read(CLUSTER_ENV.authDir),
    namespace: read(CLUSTER_ENV.namespace),
    databaseUrl: read(CLUSTER_ENV.databaseUrl),
    temporalDatabaseUrl: read(CLUSTER_ENV.temporalDatabaseUrl),
    controlUrl: read(CLUSTER_ENV.control),
  };
}

/**
 * The restore of the drill (docs/production.md, "Backup and restore"): every Temporal host
 * stopped, PostgreSQL's data destroyed and the backup restored into a fresh data directory, then
 * the hosts started again; the cardflow processes stay up and reconnect.
 */
async function restoreCluster(pg: RunningPostgres, temporal: RunningTemporalCluster, from: string) {
  const started = Date.now();
  await Promise.all(HOSTS.map((host) => temporal.host(host).stop('SIGTERM')));
  const stopped = Date.now();
  await pg.restore(from);
  const restored = Date.now();
  // Together: the frontend serves once history hosts have joined the ring.
  await Promise.all(HOSTS.map((host) => temporal.restart(host)));
  const now = Date.now();
  return { ms: now - started, stopMs: stopped - started, databaseMs: restored - stopped, startMs: now - restored };
}

/**
 * `POST /kill/<host>` (SIGKILL), `POST /start/<host>`, `POST /restart/postgresql`;
 * `POST /backup/postgresql` (answers the backup's bytes and time) and `POST /restore/postgresql`
 * (the latest backup; answers the restore's time), under `backupDir`.
 */
export async function startControlServer(
  pg: RunningPostgres,
  temporal: RunningTemporalCluster,
  backupDir: string,
): Promise<Server> {
  let latestBackup: string | undefined;
  const server = createServer((req, res) => {
    const [, action, target] = (req.url ?? '').split('/');
    const host = HOSTS.find((h): h is HostName => h === target);
    const act = async (): Promise<object | void> => {
      if (req.method !== 'POST') throw new Error('POST only');
      if (action === 'kill' && host) return temporal.host(host).stop('SIGKILL');
      if (action === 'start' && host) return temporal.restart(host);
      if (action === 'restart' && target === 'postgresql') return pg.restart();
      if (action === 'backup' && target === 'postgresql') {
        const into = join(backupDir, `backup-${Date.now()}`);
        const taken = await pg.backup(into);
        latestBackup = into;
        return taken;
      }
      if (action === 'restore' && target === 'postgresql') {
        if (!latestBackup) throw new Error('no backup taken yet');
        return restoreCluster(pg, temporal, latestBackup);
      }
      throw new Error(`unknown control ${req.url}`);
    };
    act().then(
      (answer) =>
        answer
          ? res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
          : res.writeHead(204).end(),
      (error: unknown) => res.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

export function controlUrl(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Asks the global setup to act on the cluster; resolves when done. */
export async function control(path: `/kill/${HostName}` | `/start/${HostName}` | '/restart/postgresql'): Promise<void> {
  const response = await fetch(`${clusterSettings().controlUrl}${path}`, { method: 'POST' });
  if (response.status !== 204) throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
}

/**
 * Backs the cluster's PostgreSQL up, or restores the latest backup; resolves with what it measured.
 */
export async function controlDrill(path: '/backup/postgresql'): Promise<BackupTaken>;
export async function controlDrill(
  path: '/restore/postgresql',
): Promise<{ ms: number; stopMs: number; databaseMs: number; startMs: number }>;
export async function controlDrill(path: '/backup/postgresql' | '/restore/postgresql'): Promise<object> {
  const response = await fetch(`${clusterSettings().controlUrl}${path}`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as object;
}

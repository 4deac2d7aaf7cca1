/**
 * A real multi-process Temporal cluster on loopback: the server that
 * tools/scripts/temporal-server.sh builds (the version docker-compose.yml runs), its schema created
 * by tools/deploy/temporal-schema.sh (the script compose runs too), and one process per service:
 * frontend, matching, worker, and two history hosts on distinct ports, all rendering
 * tools/deploy/temporal/cluster.yaml from their environment, plus the internal frontend the
 * server's own calls go through. Then the namespace and cardflow's search attributes, by
 * tools/deploy/setup-temporal.ts. Locked down as in production: mutual TLS with certificates
 * tools/scripts/make-certs.sh makes for the run, and roles: every caller's JWT
 * (tools/scripts/make-tokens.sh), checked by cardflow's build of the server.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { createServer } from 'node:net';
import type { RunningPostgres } from './postgres';
import { type ManagedProcess, type ProcessGroup, waitUntil } from './processes';
import { jwksFile, makeTemporalTokens, temporalCallerEnv } from './temporal-auth';
import { makeTemporalCerts, temporalTlsOptions } from './temporal-tls';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../..');

export type TemporalService = 'frontend' | 'internal-frontend' | 'matching' | 'worker' | 'history';
export const HISTORY_HOSTS = ['history-a', 'history-b'] as const;
export type HistoryHost = (typeof HISTORY_HOSTS)[number];
export type HostName = 'frontend' | 'internal-frontend' | 'matching' | 'worker' | HistoryHost;
export const HOSTS: readonly HostName[] = [...HISTORY_HOSTS, 'matching', 'frontend', 'internal-frontend', 'worker'];

function isHistoryHost(name: HostName): name is HistoryHost {
  return (HISTORY_HOSTS as readonly HostName[]).includes(name);
}

export interface RunningTemporalCluster {
  /** `127.0.0.1:<port>` of the frontend's gRPC (mutual TLS: certificates in {@link tlsDir}). */
  address: string;
  /**
   * The CA and the client certificates (tools/scripts/make-certs.sh;
   * tools/scripts/cluster/temporal-tls.ts).
   */
  tlsDir: string;
  /**
   * The JWKS document, its signing key and every caller's token
   * (tools/scripts/cluster/temporal-auth.ts).
   */
  authDir: string;
  namespace: string;
  host(name: HostName): ManagedProcess;
  /** `127.0.0.1:<port>` of each host's Prometheus metrics (`/metrics`). */
  metricsTargets: Record<HostName, string>;
  /**
   * `127.0.0.1:<port>` of each history host's gRPC: its identity in the membership ring, and the
   * owner a shard it holds names in the database.
   */
  historyAddresses: Record<HistoryHost, string>;
  /** Starts a host again (after a kill) with the same ports, and waits until it serves. */
  restart(name: HostName): Promise<void>;
}

/** Builds (once) or finds the server: the folder holding `server`, `sql-tool` and `schema/`. */
export async function temporalServerDir(): Promise<string> {
  const { stdout } = await run('bash', [join(ROOT, 'tools/scripts/temporal-server.sh')], {
    maxBuffer: 1 << 20,
    timeout: 30 * 60_000,
  });
  return stdout.trim();
}

/**
 * A free loopback port below 32768: the server stores membership ports in a smallint column, and
 * the kernel's own free ports (ephemeral range) lie above it. The same range for every service.
 */
async function freeMembershipPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    // Each port is released once checked, so the same one could be drawn twice for two services.
    if (taken.has(candidate)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(candidate, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) {
      taken.add(candidate);
      return candidate;
    }
  }
}

function databaseEnv(pg: RunningPostgres): Record<string, string> {
  return {
    POSTGRES_HOST: pg.host,
    POSTGRES_PORT: String(pg.port),
    POSTGRES_USER: pg.user,
    POSTGRES_PASSWORD_FILE: pg.passwordFile,
    TEMPORAL_DB: 'temporal',
    TEMPORAL_VISIBILITY_DB: 'temporal_visibility',
  };
}

async function hasClusterMetadata(pg: RunningPostgres): Promise<boolean> {
  const client = new PgClient({ connectionString: pg.url('temporal') });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM cluster_metadata_info');
    return rows[0]!.n > 0;
  } finally {
    await client.end();
  }
}

async function isServing(address: string, tlsDir: string): Promise<boolean> {
  const connection = await Connection.connect({
    address,
    connectTimeout: 2_000,
    tls: temporalTlsOptions(tlsDir, 'client'),
  });
  try {
    await connection.workflowService.getSystemInfo({});
    return true;
  } finally {
    await connection.close();
  }
}

/**
 * Every process writes the cluster's metadata record when the database has none, and two doing it
 * at once makes one of them exit on the duplicate key: one host first, the rest once it is there.
 */
async function launchInOrder(
  launch: (name: HostName) => ManagedProcess,
  hosts: Map<HostName, ManagedProcess>,
  pg: RunningPostgres,
  address: string,
  tlsDir: string,
): Promise<void> {
  const [first, ...rest] = HOSTS;
  launch(first!);
  await waitUntil('the cluster metadata record', () => hasClusterMetadata(pg), {
    timeoutMs: 60_000,
    process: hosts.get(first!)!,
  });
  for (const name of rest) launch(name);
  await waitUntil(`the Temporal frontend serving on ${address}`, () => isServing(address, tlsDir), {
    timeoutMs: 120_000,
    process: hosts.get('frontend')!,
  });
}

/** Free ports for every Temporal host: its gRPC, membership and HTTP ports, and its metrics. */
async function clusterPorts() {
  const taken = new Set<number>();
  const port = () => freeMembershipPort(taken);
  const ports = {
    TEMPORAL_FRONTEND_GRPC_PORT: await port(),
    TEMPORAL_FRONTEND_MEMBERSHIP_PORT: await port(),
    TEMPORAL_FRONTEND_HTTP_PORT: await port(),
    TEMPORAL_INTERNAL_FRONTEND_GRPC_PORT: await port(),
    TEMPORAL_INTERNAL_FRONTEND_MEMBERSHIP_PORT: await port(),
    TEMPORAL_INTERNAL_FRONTEND_HTTP_PORT: await port(),
    TEMPORAL_MATCHING_GRPC_PORT: await port(),
    TEMPORAL_MATCHING_MEMBERSHIP_PORT: await port(),
    TEMPORAL_WORKER_GRPC_PORT: await port(),
    TEMPORAL_WORKER_MEMBERSHIP_PORT: await port(),
  };
  const historyPorts = {} as Record<HistoryHost, Record<string, number>>;
  for (const name of HISTORY_HOSTS)
    historyPorts[name] = { TEMPORAL_HISTORY_GRPC_PORT: await port(), TEMPORAL_HISTORY_MEMBERSHIP_PORT: await port() };
  // Each host's Prometheus endpoint (tools/deploy/temporal/cluster.yaml renders it when the port is
  // set).
  const metricsPorts = {} as Record<HostName, number>;
  for (const name of HOSTS) metricsPorts[name] = await port();
  return { ports, historyPorts, metricsPorts };
}

export async function startTemporalCluster(
  group: ProcessGroup,
  pg: RunningPostgres,
  opts: {
    namespace: string;
    /** Where the certificates are made (their own folder of the run). */
    tlsDir: string;
    /**
     * Where the signing key, the JWKS document and the tokens are made (another folder of the run).
     */
    authDir: string;
    serverDir?: string;
    /**
     * Dynamic configuration to use instead of tools/deploy/temporal/dynamic-config.yaml (a test's
     * faster settings).
     */
    dynamicConfigFile?: string;
    /**
     * History shards of a throwaway cluster, instead of the production 512 in
     * tools/deploy/temporal/cluster.yaml (docs/production.md: each shard costs memory and idle
     * work).
     */
    historyShards?: number;
  },
): Promise<RunningTemporalCluster> {
  const serverDir = opts.serverDir ?? (await temporalServerDir());
  await run('sh', [join(ROOT, 'tools/deploy/temporal-schema.sh')], {
    env: {
      ...process.env,
      ...databaseEnv(pg),
      TEMPORAL_SQL_TOOL: join(serverDir, 'sql-tool'),
      TEMPORAL_SCHEMA_DIR: join(serverDir, 'schema/postgresql/v12'),
    },
  });
  await makeTemporalCerts(opts.tlsDir);
  await makeTemporalTokens(opts.authDir, opts.namespace);
  const { ports, historyPorts, metricsPorts } = await clusterPorts();
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    ...databaseEnv(pg),
    SQL_PASSWORD: pg.password,
    TEMPORAL_SERVER_TLS_DIR: opts.tlsDir,
    TEMPORAL_JWKS_FILE: jwksFile(opts.authDir),
    TEMPORAL_DYNAMIC_CONFIG_FILE: opts.dynamicConfigFile ?? join(ROOT, 'tools/deploy/temporal/dynamic-config.yaml'),
    ...(process.env.TEMPORAL_LOG_LEVEL ? { TEMPORAL_LOG_LEVEL: process.env.TEMPORAL_LOG_LEVEL } : {}),
    ...(opts.historyShards ? { TEMPORAL_NUM_HISTORY_SHARDS: String(opts.historyShards) } : {}),
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    // The non-history processes render the history section too; history-a's ports are those.
    ...Object.fromEntries(Object.entries(historyPorts['history-a']).map(([k, v]) => [k, String(v)])),
  };
  const address = `127.0.0.1:${ports.TEMPORAL_FRONTEND_GRPC_PORT}`;
  const hosts = new Map<HostName, ManagedProcess>();

  const launch = (name: HostName): ManagedProcess => {
    const service: TemporalService = isHistoryHost(name) ? 'history' : name;
    const own = isHistoryHost(name) ? historyPorts[name] : {};
    const p = group.spawn({
      name: `temporal-${name}`,
      command: join(serverDir, 'server'),
      args: ['--root', ROOT, '--config', 'tools/deploy/temporal', '--env', 'cluster', 'start'].concat([
        '--service',
        service,
      ]),
      env: {
        ...baseEnv,
        ...Object.fromEntries(Object.entries(own).map(([k, v]) => [k, String(v)])),
        TEMPORAL_METRICS_PORT: String(metricsPorts[name]),
      },
      cwd: ROOT,
    });
    hosts.set(name, p);
    return p;
  };

  await launchInOrder(launch, hosts, pg, address, opts.tlsDir);
  await run(process.execPath, ['--import', 'tsx', join(ROOT, 'tools/deploy/setup-temporal.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: opts.namespace,
      ...temporalCallerEnv(opts, 'setup'),
      CARDFLOW_NAMESPACE_RETENTION_DAYS: '1',
      CARDFLOW_LOG_LEVEL: 'warn',
    },
  });
  return {
    address,
    tlsDir: opts.tlsDir,
    authDir: opts.authDir,
    namespace: opts.namespace,
    host: (name) => hosts.get(name)!,
    metricsTargets: Object.fromEntries(HOSTS.map((name) => [name, `127.0.0.1:${metricsPorts[name]}`])) as Record<
      HostName,
      string
    >,
    historyAddresses: Object.fromEntries(
      HISTORY_HOSTS.map((name) => [name, `127.0.0.1:${historyPorts[name].TEMPORAL_HISTORY_GRPC_PORT}`]),
    ) as Record<HistoryHost, string>,
    async restart(name) {
      const p = launch(name);
      // A host is up when its gRPC port accepts; the frontend's answer says the cluster serves.
      await waitUntil(`temporal ${name} back`, () => isServing(address, opts.tlsDir), {
        timeoutMs: 60_000,
        process: p,
      });
    },
  };
}

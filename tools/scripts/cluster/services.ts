/**
 * cardflow's own processes of the production topology, scaled out: workers on one task queue and
 * webhook receivers behind the load balancer, all sharing the PostgreSQL stores
 * (`CARDFLOW_DATABASE_URL`) and one codec key list. Each is the real entry point
 * (`workers/main.ts`, `webhooks/main.ts`) under `node --import tsx` (not the tsx CLI, whose second
 * node process would survive a SIGKILL of the first), with only the environment a deployment would
 * give it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../lib/free-port';
import { type RunningLoadBalancer, startLoadBalancer } from './haproxy';
import { type ManagedProcess, type ProcessGroup, waitUntil } from './processes';
import { temporalCallerEnv } from './temporal-auth';

const ROOT = join(__dirname, '../../..');

export interface ServicesOptions {
  dir: string;
  temporalAddress: string;
  /**
   * The cluster's certificates: workers connect with theirs, receivers with theirs (mutual TLS).
   */
  temporalTlsDir: string;
  /** The cluster's tokens: workers and receivers each present their own (roles). */
  temporalAuthDir: string;
  namespace: string;
  databaseUrl: string;
  /** `id:base64key` list every process gets (payloads written by one decrypt on all). */
  codecKeys: string;
  /** CARDFLOW_PROVIDER_* and key-file variables pointing at the provider (or the sandbox). */
  providerEnv: Record<string, string>;
  workers?: number;
  receivers?: number;
  taskQueue?: string;
  logLevel?: string;
  /** The load balancer's port, when the provider was told the callback URL before it started. */
  webhookPort?: number;
  /**
   * Every process serves Prometheus metrics on a port of its own (`CARDFLOW_METRICS_ADDRESS`),
   * listed in {@link RunningServices.metricsTargets}; the workers sample visibility every
   * `sampleSeconds` (default theirs).
   */
  metrics?: { sampleSeconds?: number };
  /** Also start the codec server (`platform/codec/main.ts`) with the same keys. */
  codecServer?: boolean;
  /** Further variables for every cardflow process (e.g. OpenTelemetry's exporter endpoint). */
  extraEnv?: Record<string, string>;
}

/** A process's metrics endpoint, as Prometheus scrapes it. */
export interface MetricsTarget {
  /** `worker`, `webhooks` or `codec-server`: the scrape job. */
  job: string;
  name: string;
  /** `127.0.0.1:<port>`, path `/metrics`. */
  address: string;
}

export interface RunningServices {
  /** The load balancer's URL: the provider's webhook callback. */
  webhookUrl: string;
  loadBalancer: RunningLoadBalancer;
  workers: ManagedProcess[];
  receivers: ManagedProcess[];
  /**
   * Starts one more worker (after a kill) and waits until it polls; `env` adds to its variables
   * (e.g. CARDFLOW_WORKFLOW_BUNDLE: a second build beside the first, docs/versioning.md).
   */
  addWorker(env?: Record<string, string>): Promise<ManagedProcess>;
  /** The metrics endpoints, when started with `metrics`. */
  metricsTargets: MetricsTarget[];
  /** `http://127.0.0.1:<port>`, when started with `codecServer`. */
  codecServerUrl?: string;
}

function logged(p: ManagedProcess, text: string): () => Promise<boolean> {
  return async () => readFileSync(p.logFile, 'utf8').includes(text);
}

/** The codec server the Web UI decodes payloads through, on a free port. */
async function startCodecServer(
  group: ProcessGroup,
  codecKeys: string,
  metricsEnv: (job: string, name: string) => Promise<Record<string, string>>,
): Promise<{ url: string; process: ManagedProcess }> {
  const port = await freePort();
  const server = group.spawn({
    name: 'codec-server',
    command: process.execPath,
    args: ['--import', 'tsx', join(ROOT, 'platform/codec/main.ts')],
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      CARDFLOW_CODEC_KEYS: codecKeys,
      CARDFLOW_CODEC_SERVER_PORT: String(port),
      ...(await metricsEnv('codec-server', 'codec-server')),
    },
  });
  return { url: `http://127.0.0.1:${port}`, process: server };
}

export async function startServices(group: ProcessGroup, opts: ServicesOptions): Promise<RunningServices> {
  const common: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TEMPORAL_ADDRESS: opts.temporalAddress,
    TEMPORAL_NAMESPACE: opts.namespace,
    CARDFLOW_CODEC_KEYS: opts.codecKeys,
    CARDFLOW_DATABASE_URL: opts.databaseUrl,
    CARDFLOW_LOG_LEVEL: opts.logLevel ?? 'info',
    ...(opts.taskQueue ? { CARDFLOW_TASK_QUEUE: opts.taskQueue } : {}),
    ...opts.extraEnv,
  };
  const credentials = { tlsDir: opts.temporalTlsDir, authDir: opts.temporalAuthDir };
  const metricsTargets: MetricsTarget[] = [];
  /** The metrics variables of one more process, its target listed. */
  const metricsEnv = async (job: string, name: string): Promise<Record<string, string>> => {
    if (!opts.metrics) return {};
    const address = `127.0.0.1:${await freePort()}`;
    metricsTargets.push({ job, name, address });
    return {
      CARDFLOW_METRICS_ADDRESS: address,
      ...(opts.metrics.sampleSeconds ? { CARDFLOW_METRICS_SAMPLE_SECONDS: String(opts.metrics.sampleSeconds) } : {}),
    };
  };
  let workerCount = 0;
  const startWorker = async (env: Record<string, string> = {}) => {
    const name = `worker-${++workerCount}`;
    return group.spawn({
      name,
      command: process.execPath,
      args: ['--import', 'tsx', join(ROOT, 'workers/main.ts')],
      cwd: ROOT,
      env: {
        ...common,
        ...temporalCallerEnv(credentials, 'worker'),
        ...opts.providerEnv,
        ...(await metricsEnv('worker', name)),
        ...env,
      },
    });
  };
  const workers: ManagedProcess[] = [];
  for (let i = 0; i < (opts.workers ?? 2); i++) workers.push(await startWorker());

  const receivers: ManagedProcess[] = [];
  const backends: Array<{ name: string; port: number }> = [];
  for (let i = 1; i <= (opts.receivers ?? 2); i++) {
    const port = await freePort();
    backends.push({ name: `receiver-${i}`, port });
    receivers.push(
      group.spawn({
        name: `receiver-${i}`,
        command: process.execPath,
        args: ['--import', 'tsx', join(ROOT, 'webhooks/main.ts')],
        cwd: ROOT,
        env: {
          ...common,
          ...temporalCallerEnv(credentials, 'webhooks'),
          ...(await metricsEnv('webhooks', `receiver-${i}`)),
          CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: opts.providerEnv.CARDFLOW_PLATFORM_PUBLIC_KEY_FILE ?? '',
          CARDFLOW_WEBHOOK_HOST: '127.0.0.1',
          CARDFLOW_WEBHOOK_PORT: String(port),
          // haproxy checks every 500 ms and drops a receiver after one failure (haproxy.ts).
          CARDFLOW_WEBHOOK_DRAIN_SECONDS: '1',
        },
      }),
    );
  }
  const codecServer = opts.codecServer ? await startCodecServer(group, opts.codecKeys, metricsEnv) : undefined;
  const codecServerUrl = codecServer?.url;
  const codec = codecServer ? [codecServer.process] : [];
  // Workers bundle the workflow code at start: the slowest step, so all of them wait together.
  const waitPolling = (w: ManagedProcess) =>
    waitUntil(`${w.name} polling`, logged(w, 'cardflow worker: polling'), { timeoutMs: 180_000, process: w });
  await Promise.all([
    ...workers.map(waitPolling),
    ...receivers.map((r) =>
      waitUntil(`${r.name} listening`, logged(r, 'webhook receiver listening'), { timeoutMs: 60_000, process: r }),
    ),
    ...codec.map((c) =>
      waitUntil('the codec server listening', logged(c, 'codec server listening'), { timeoutMs: 60_000, process: c }),
    ),
  ]);
  const loadBalancer = await startLoadBalancer(group, opts.dir, backends, opts.webhookPort);
  return {
    webhookUrl: loadBalancer.url,
    loadBalancer,
    workers,
    receivers,
    metricsTargets,
    ...(codecServerUrl ? { codecServerUrl } : {}),
    async addWorker(env) {
      const w = await startWorker(env);
      workers.push(w);
      await waitPolling(w);
      return w;
    },
  };
}

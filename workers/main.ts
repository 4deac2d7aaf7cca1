/**
 * The cardflow worker process: `node dist/workers/main.js`. On SIGINT or SIGTERM it stops polling,
 * lets running tasks finish within the shutdown grace, closes its connections and exits; a bad
 * setting exits 2. Logs are JSON lines on stderr. With `CARDFLOW_WORKER_HEALTH_ADDRESS` it serves
 * `/healthz` and `/readyz` (ready while it polls and Temporal answers): a listener serves an
 * orchestrator's probe and a load balancer alike, where a check command would start a process per
 * probe and see less.
 */
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { createProviderClient } from '../provider/client';
import { providerConfig } from '../provider/config';
import { ensureReconcileSchedule, reconcileSettings } from '../client/reconciliation';
import { ensureReferenceSchedule } from '../client/reference-schedule';
import { dataConverterFor } from '../platform/codec/data-converter';
import { configured, readConfiguration } from '../platform/config/schema';
import { exitCodeFor, failureMessage, loadConfiguration } from '../platform/config/startup';
import { keysCheck, temporalCheck } from '../platform/health/checks';
import { type HealthServer, parseListenAddress, startHealthServer } from '../platform/health/server';
import { createLogger } from '../platform/logging/logger';
import { fileStoreFor, referenceStoreFor, routeStoreFor } from '../platform/storage/from-config';
import { startFileRetention } from '../platform/storage/file-retention';
import { notificationSettings, openUndeliveredStore } from '../platform/notifications/from-config';
import { loadTemporalWorkerConfig, SHUTDOWN_GRACE_SECONDS, workerTuning } from './config';
import { createWorker, DEFAULT_PROBE_SLOTS, DEFAULT_PROBES_PER_SECOND } from './create-worker';
import { limitWorkflowThreadHeap } from './heap-limit';
import { probeTaskQueue } from '../domain/task-queue';
import {
  initFindingsCounter,
  prometheusTelemetry,
  providerCallMetrics,
  recordProbeBudget,
  workerMetrics,
} from './telemetry';
import { startVisibilityMetrics } from './visibility-metrics';
import { startTracing, traceProviderCall } from '../platform/telemetry/tracing';
import { entryPointArgs } from '../platform/config/command-line';
import { processEnv } from '../platform/config/process-env';
import { bootstrapCurrentVersion, versionString, versioningSettings } from './versioning';
import { compiledBuildId } from '../platform/telemetry/build-id';
import { recordBuildInfo } from '../platform/telemetry/build-info';
import { sampleProcessMemory } from '../platform/telemetry/process-memory';
import { cardflowVersion } from '../platform/config/version';
import { requireSchemaAt } from '../platform/storage/schema-versions';

/**
 * Everything the worker reads from the environment and secret files, before contacting anything.
 */
export function workerSettings(env: Record<string, string | undefined>) {
  // Every variable against its rule, once, all problems in one error (platform/config/schema.ts).
  const config = readConfiguration(env);
  const healthAddress = config.CARDFLOW_WORKER_HEALTH_ADDRESS;
  return {
    config,
    temporal: loadTemporalWorkerConfig(env, config),
    provider: providerConfig(config),
    // The same converter as the client and the webhook receiver: payloads are encrypted
    // (platform/codec/).
    codec: dataConverterFor(config),
    reconcile: reconcileSettings(config),
    referenceRefreshMs: configured(config, 'CARDFLOW_REFERENCE_REFRESH_INTERVAL'),
    tuning: workerTuning(config),
    health: healthAddress ? parseListenAddress(healthAddress, 'CARDFLOW_WORKER_HEALTH_ADDRESS') : undefined,
    metrics: workerMetrics(config),
    versioning: versioningSettings(config),
    notifications: notificationSettings(config),
  };
}

type WorkerSettings = ReturnType<typeof workerSettings>;
type Logger = ReturnType<typeof createLogger>;
type Tracing = ReturnType<typeof startTracing>;
type Meter = ReturnType<typeof Runtime.instance>['metricMeter'];
type CardflowWorker = Awaited<ReturnType<typeof createWorker>>;

/** What the worker process runs on once it started: its settings and the things built from them. */
interface WorkerProcess {
  settings: WorkerSettings;
  logger: Logger;
  connection: NativeConnection;
  /** The Runtime's meter, when metrics are configured. */
  meter: Meter | undefined;
  tracing: Tracing;
}

/**
 * The worker process: reads its configuration (exit 2 when wrong), installs the Runtime, connects,
 * creates the worker, starts what runs beside it (health listener, reconciliation schedule, gauges,
 * file retention), polls until SIGINT or SIGTERM, and closes what it opened.
 */
export async function runWorkerProcess(env: Record<string, string | undefined> = processEnv()): Promise<void> {
  const settings = loadConfiguration(() => workerSettings(env));
  const logger = createLogger({ base: { service: 'worker' } });
  const meter = installRuntime(logger, settings.metrics);
  // Traces when an OTLP endpoint is configured (platform/telemetry/tracing.ts); nothing installed
  // otherwise.
  const tracing = startTracing('worker', settings.config);
  // A schema older than this build refuses the start, naming the migration and how to apply it.
  const databaseUrl = settings.config.CARDFLOW_DATABASE_URL?.value;
  if (databaseUrl) await requireSchemaAt(databaseUrl);
  const provider = createProviderClient({
    ...settings.provider,
    ...(meter ? { onCall: providerCallMetrics(meter) } : {}),
    ...(tracing ? { wrapCall: (call, send) => traceProviderCall(tracing.tracer, call, send) } : {}),
  });
  const connection = await NativeConnection.connect(settings.temporal.connectionOptions);
  const proc: WorkerProcess = { settings, logger, connection, meter, tracing };
  let healthServer: HealthServer | undefined;
  try {
    const fileStore = fileStoreFor(settings.config);
    // Before the worker creates its workflow threads: they take the limit in force then.
    const heapLimitMib = limitWorkflowThreadHeap(settings.tuning.workflowHeapMib);
    const worker = await buildWorker(proc, provider, fileStore);
    healthServer = await startWorkerHealth(proc, worker);
    await ensureSchedules(proc);
    const stopBeside = startBesideWorker(proc, worker, fileStore);
    const stop = (signal: NodeJS.Signals) => {
      stopBeside();
      logger.info('cardflow worker: shutting down', { signal });
      if (worker.getState() === 'RUNNING') worker.shutdown();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    logger.info('cardflow worker: polling', pollingSummary(proc, worker, heapLimitMib));
    const running = worker.run();
    bootstrapVersion(proc, worker);
    await running;
    logger.info('cardflow worker: stopped');
  } finally {
    await healthServer?.stop();
    await connection.close();
    await provider.close();
    await tracing?.shutdown();
  }
}

/**
 * Our own signal handling, so shutdown is one ordered sequence. The same logger for the SDK
 * (workflow and activity ids as fields) and, forwarded, for core's messages. Metrics, when
 * configured, on the Runtime's Prometheus endpoint (workers/telemetry.ts); their meter.
 */
function installRuntime(logger: Logger, metrics: WorkerSettings['metrics']): Meter | undefined {
  Runtime.install({
    shutdownSignals: [],
    logger,
    telemetryOptions: {
      logging: { filter: { core: logger.level, other: 'ERROR' }, forward: {} },
      ...(metrics ? { metrics: prometheusTelemetry(metrics.bindAddress) } : {}),
    },
  });
  return metrics ? Runtime.instance().metricMeter : undefined;
}

/** The worker on both task queues, with its activities' dependencies, versioning and tuning. */
async function buildWorker(
  { settings, connection, tracing }: WorkerProcess,
  provider: ReturnType<typeof createProviderClient>,
  fileStore: ReturnType<typeof fileStoreFor>,
): Promise<CardflowWorker> {
  const { config, temporal, versioning, notifications } = settings;
  const { probes, workflowHeapMib: _heap, ...workerOptions } = settings.tuning;
  return createWorker({
    connection,
    namespace: temporal.namespace,
    taskQueue: temporal.taskQueue,
    // The merchant key opens sealed PINs and activation codes inside the activities that need them.
    activityDeps: {
      provider,
      merchantPrivateKey: settings.provider.merchantPrivateKey,
      fileStore,
      routes: routeStoreFor(config),
      referenceStore: referenceStoreFor(config),
      // With CARDFLOW_NOTIFY_URL: signed notifications to the merchant's backend
      // (docs/notifications.md).
      ...(notifications ? { notifications: { ...notifications, store: await openUndeliveredStore(config) } } : {}),
    },
    workerOptions: {
      shutdownGraceTime: `${SHUTDOWN_GRACE_SECONDS}s`,
      dataConverter: settings.codec.dataConverter,
      ...workerOptions,
    },
    probes,
    ...(tracing ? { tracing } : {}),
    ...(versioning.enabled ? { versioning: { deploymentName: versioning.deploymentName } } : {}),
    ...(versioning.bundlePath ? { workflowBundle: { codePath: versioning.bundlePath } } : {}),
  });
}

/**
 * With a health address: ready while the worker polls and its Temporal connection answers
 * (platform/health/server.ts).
 */
async function startWorkerHealth(
  { settings, logger, connection }: WorkerProcess,
  worker: CardflowWorker,
): Promise<HealthServer | undefined> {
  if (!settings.health) return undefined;
  const { currentKeyId, keySource } = settings.codec;
  const healthServer = await startHealthServer({
    ...settings.health,
    checks: [
      {
        name: 'worker',
        check: async () => {
          const state = worker.getState();
          if (state !== 'RUNNING') throw new Error(`the worker is ${state}, not polling`);
          return `polling ${settings.temporal.taskQueue}`;
        },
      },
      temporalCheck(connection),
      keysCheck('codec-keys', () => `codec key ${currentKeyId} (${keySource})`),
    ],
  });
  logger.info('cardflow worker: health listener', { url: healthServer.url });
  return healthServer;
}

/**
 * Every worker makes sure its schedules exist at their intervals (idempotent): reconciliation's,
 * unless switched off, and the reference data's refresh. One that cannot still serves its tasks;
 * the next start (or `cardflow reconcile --schedule`) creates it, so each is tried once rather
 * than retried through a restart before the worker serves; a backend reads the last lists
 * meanwhile.
 */
async function ensureSchedules({ settings, logger, connection }: WorkerProcess): Promise<void> {
  const { temporal, reconcile, referenceRefreshMs } = settings;
  const client = new Client({ connection, namespace: temporal.namespace, dataConverter: settings.codec.dataConverter });
  const once = { taskQueue: temporal.taskQueue, whileUnavailable: { limitMs: 0 } };
  const ensured = (what: string, every: number, made: Promise<{ scheduleId: string; created: boolean }>) =>
    made.then(
      ({ scheduleId, created }) => logger.info(`cardflow worker: ${what} scheduled`, { scheduleId, created, every }),
      (error: unknown) => logger.warn(`cardflow worker: ${what} schedule not ensured`, { error }),
    );
  if (reconcile.schedule)
    await ensured('reconciliation', reconcile.intervalMs, ensureReconcileSchedule(client, { ...reconcile, ...once }));
  await ensured(
    'reference data refresh',
    referenceRefreshMs,
    ensureReferenceSchedule(client, { intervalMs: referenceRefreshMs, ...once }),
  );
}

/**
 * What runs beside the worker until shutdown: the visibility and memory gauges and the probe budget
 * with metrics, and the supporting files' retention; the function that stops them.
 */
function startBesideWorker(
  { settings, logger, connection, meter }: WorkerProcess,
  worker: CardflowWorker,
  fileStore: ReturnType<typeof fileStoreFor>,
): () => void {
  const { temporal, metrics, config } = settings;
  const { probes } = settings.tuning;
  const visibility =
    meter && metrics
      ? startVisibilityMetrics({
          client: new Client({
            connection,
            namespace: temporal.namespace,
            dataConverter: settings.codec.dataConverter,
          }),
          meter,
          intervalMs: metrics.sampleIntervalMs,
          onError: (error) => logger.warn('cardflow worker: visibility metrics not sampled', { error }),
        })
      : undefined;
  if (meter) {
    const version = worker.workflows.options.workerDeploymentOptions?.version;
    recordProbeBudget(
      meter,
      { perSecond: probes.perSecond ?? DEFAULT_PROBES_PER_SECOND, slots: probes.slots ?? DEFAULT_PROBE_SLOTS },
      probeTaskQueue(temporal.taskQueue),
    );
    initFindingsCounter(meter, { namespace: temporal.namespace, taskQueue: temporal.taskQueue });
    recordBuildInfo(meter, { buildId: version?.buildId ?? compiledBuildId(), version: cardflowVersion() });
  }
  const stopMemory = meter && metrics ? sampleProcessMemory(meter, metrics.sampleIntervalMs) : undefined;
  const stopFileRetention = startFileRetention(fileStore, {
    retentionDays: configured(config, 'CARDFLOW_FILE_RETENTION_DAYS'),
    onSwept: (deleted) => logger.info('cardflow worker: uploaded supporting files deleted', { deleted }),
    onError: (error) => logger.warn('cardflow worker: supporting files not swept', { error }),
  });
  return () => {
    visibility?.stop();
    stopMemory?.();
    stopFileRetention();
  };
}

/** What the worker's start-up line says it runs. */
function pollingSummary(
  { settings, tracing }: WorkerProcess,
  worker: CardflowWorker,
  heapLimitMib: number | undefined,
) {
  const { temporal, codec, metrics, notifications } = settings;
  const version = worker.workflows.options.workerDeploymentOptions?.version;
  return {
    taskQueue: temporal.taskQueue,
    address: temporal.address,
    namespace: temporal.namespace,
    codecKeyId: codec.currentKeyId,
    codecKeySource: codec.keySource,
    maxCachedWorkflows: worker.workflows.options.maxCachedWorkflows,
    workflowHeapMib: heapLimitMib ?? 'the process limit',
    metrics: metrics ? `http://${metrics.bindAddress}/metrics` : 'off',
    tracing: tracing ? 'otlp' : 'off',
    notifications: notifications ? new URL(notifications.target.url).origin : 'off',
    version: version ? versionString(version) : 'unversioned',
  };
}

/**
 * Makes this worker's version current as `CARDFLOW_DEPLOYMENT_BOOTSTRAP` says. The version exists
 * once this worker's pollers reached the server, so this runs beside them, never awaited.
 */
function bootstrapVersion({ settings, logger, connection }: WorkerProcess, worker: CardflowWorker): void {
  const version = worker.workflows.options.workerDeploymentOptions?.version;
  const { bootstrap } = settings.versioning;
  if (!version || bootstrap === 'off') return;
  bootstrapCurrentVersion(connection, {
    namespace: settings.temporal.namespace,
    version,
    identity: worker.workflows.options.identity,
    mode: bootstrap,
  }).then(
    ({ outcome, current }) => logger.info('cardflow worker: deployment checked', { outcome, current }),
    (error: unknown) => logger.warn('cardflow worker: could not make the first version current', { error }),
  );
}

if (require.main === module) {
  entryPointArgs({
    name: 'npm run worker',
    summary: 'the cardflow worker: polls its task queue (and the probe queue) until SIGINT or SIGTERM',
    details: ['Exit codes: 2 a configuration problem (nothing started), 1 a failure after start-up.'],
  });
  runWorkerProcess().catch((error: unknown) => {
    createLogger({ base: { service: 'worker' } }).error(`cardflow worker: ${failureMessage(error)}`);
    process.exit(exitCodeFor(error));
  });
}

/**
 * The cardflow worker process: `node dist/workers/main.js` (`tsx workers/main.ts` from the sources). Configured from the environment
 * (workers/config.ts, api/config.ts, codec keys); on SIGINT or SIGTERM it stops polling, lets running
 * tasks finish (up to the shutdown grace time), closes its connections and exits. Logs are JSON
 * lines on stderr (`logging/logger.ts`, CARDFLOW_LOG_LEVEL), the SDK's and core's included.
 *
 * Readiness: with `CARDFLOW_WORKER_HEALTH_ADDRESS` (`host:port`) the worker serves `GET /healthz`
 * and `GET /readyz` there (health/server.ts): ready while it polls and its Temporal connection
 * answers. A worker has no port of its own to add the routes to, and a listener answers an
 * orchestrator's HTTP probe and a load balancer alike, where a check command would need a process
 * start per probe and could only see what a file or the Temporal API says about the worker.
 * A missing or malformed setting exits 2 (config/startup.ts).
 */
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { createProviderClient } from '../api/client';
import { providerConfig } from '../api/config';
import { ensureReconcileSchedule, reconcileSettings } from '../client/reconciliation';
import { dataConverterFor } from '../codec/data-converter';
import { configured, readConfiguration } from '../config/schema';
import { exitCodeFor, failureMessage, loadConfiguration } from '../config/startup';
import { keysCheck, temporalCheck } from '../health/checks';
import { type HealthServer, parseListenAddress, startHealthServer } from '../health/server';
import { createLogger } from '../logging/logger';
import { fileStoreFor, routeStoreFor } from '../storage/from-config';
import { startFileRetention } from '../storage/file-retention';
import { notificationSettings, openUndeliveredStore } from '../notifications/from-config';
import { loadTemporalWorkerConfig, workerTuning } from './config';
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
import { startTracing, traceProviderCall } from '../telemetry/tracing';
import { entryPointArgs } from '../config/command-line';
import { processEnv } from '../config/process-env';
import { bootstrapCurrentVersion, compiledBuildId, versionString, versioningSettings } from './versioning';
import { recordBuildInfo } from '../telemetry/build-info';
import { sampleProcessMemory } from '../telemetry/process-memory';
import { cardflowVersion } from '../config/version';

/** Everything the worker reads from the environment and secret files, before contacting anything. */
function workerSettings(env: Record<string, string | undefined>) {
  // Every variable against its rule, once, all problems in one error (config/schema.ts).
  const config = readConfiguration(env);
  const healthAddress = config.CARDFLOW_WORKER_HEALTH_ADDRESS;
  return {
    config,
    temporal: loadTemporalWorkerConfig(env, config),
    provider: providerConfig(config),
    // The same converter as the client and the webhook receiver: payloads are encrypted (codec/).
    codec: dataConverterFor(config),
    reconcile: reconcileSettings(config),
    tuning: workerTuning(config),
    health: healthAddress ? parseListenAddress(healthAddress, 'CARDFLOW_WORKER_HEALTH_ADDRESS') : undefined,
    metrics: workerMetrics(config),
    versioning: versioningSettings(config),
    notifications: notificationSettings(config),
  };
}

export async function runWorkerProcess(env: Record<string, string | undefined> = processEnv()): Promise<void> {
  const {
    config,
    temporal,
    provider: providerSettings,
    codec,
    reconcile,
    tuning,
    health,
    metrics,
    versioning,
    notifications,
  } = loadConfiguration(() => workerSettings(env));
  const { dataConverter, keySource, currentKeyId } = codec;
  const logger = createLogger({ base: { service: 'worker' } });
  // Our own signal handling, so shutdown is one ordered sequence. The same logger for the SDK
  // (workflow and activity ids as fields) and, forwarded, for core's messages. Metrics, when
  // configured, on the Runtime's Prometheus endpoint (workers/telemetry.ts).
  Runtime.install({
    shutdownSignals: [],
    logger,
    telemetryOptions: {
      logging: { filter: { core: logger.level, other: 'ERROR' }, forward: {} },
      ...(metrics ? { metrics: prometheusTelemetry(metrics.bindAddress) } : {}),
    },
  });
  const meter = metrics ? Runtime.instance().metricMeter : undefined;
  // Traces when an OTLP endpoint is configured (telemetry/tracing.ts); nothing installed otherwise.
  const tracing = startTracing('worker', config);
  const provider = createProviderClient({
    ...providerSettings,
    ...(meter ? { onCall: providerCallMetrics(meter) } : {}),
    ...(tracing ? { wrapCall: (call, send) => traceProviderCall(tracing.tracer, call, send) } : {}),
  });
  const connection = await NativeConnection.connect(temporal.connectionOptions);
  let healthServer: HealthServer | undefined;
  try {
    const { probes, workflowHeapMib, ...workerOptions } = tuning;
    const fileStore = fileStoreFor(config);
    // Before the worker creates its workflow threads: they take the limit in force then.
    const heapLimitMib = limitWorkflowThreadHeap(workflowHeapMib);
    const worker = await createWorker({
      connection,
      namespace: temporal.namespace,
      taskQueue: temporal.taskQueue,
      // The merchant key opens sealed PINs and activation codes inside the activities that need them.
      activityDeps: {
        provider,
        merchantPrivateKey: providerSettings.merchantPrivateKey,
        fileStore,
        routes: routeStoreFor(config),
        // With CARDFLOW_NOTIFY_URL: signed notifications to the merchant's backend (docs/notifications.md).
        ...(notifications ? { notifications: { ...notifications, store: await openUndeliveredStore(config) } } : {}),
      },
      workerOptions: { shutdownGraceTime: '10s', dataConverter, ...workerOptions },
      probes,
      ...(tracing ? { tracing } : {}),
      ...(versioning.enabled ? { versioning: { deploymentName: versioning.deploymentName } } : {}),
      ...(versioning.bundlePath ? { workflowBundle: { codePath: versioning.bundlePath } } : {}),
    });
    const version = worker.workflows.options.workerDeploymentOptions?.version;
    if (health) {
      // Ready while the worker polls and its Temporal connection answers (health/server.ts).
      healthServer = await startHealthServer({
        ...health,
        checks: [
          {
            name: 'worker',
            check: async () => {
              const state = worker.getState();
              if (state !== 'RUNNING') throw new Error(`the worker is ${state}, not polling`);
              return `polling ${temporal.taskQueue}`;
            },
          },
          temporalCheck(connection),
          keysCheck('codec-keys', () => `codec key ${currentKeyId} (${keySource})`),
        ],
      });
      logger.info('cardflow worker: health listener', { url: healthServer.url });
    }
    if (reconcile.schedule) {
      // Every worker makes sure the schedule exists with this interval (idempotent); one that cannot
      // still serves its tasks, the next start or `cardflow reconcile --schedule` creates it. So it
      // tries once rather than riding out a restart before it serves.
      const client = new Client({ connection, namespace: temporal.namespace, dataConverter });
      await ensureReconcileSchedule(client, {
        ...reconcile,
        taskQueue: temporal.taskQueue,
        rideOut: { limitMs: 0 },
      }).then(
        ({ scheduleId, created }) =>
          logger.info('cardflow worker: reconciliation scheduled', {
            scheduleId,
            created,
            every: reconcile.intervalMs,
          }),
        (error: unknown) => logger.warn('cardflow worker: reconciliation schedule not ensured', { error }),
      );
    }
    const visibility =
      meter && metrics
        ? startVisibilityMetrics({
            client: new Client({ connection, namespace: temporal.namespace, dataConverter }),
            meter,
            intervalMs: metrics.sampleIntervalMs,
            onError: (error) => logger.warn('cardflow worker: visibility metrics not sampled', { error }),
          })
        : undefined;
    if (meter) {
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
    const stop = (signal: NodeJS.Signals) => {
      visibility?.stop();
      stopMemory?.();
      stopFileRetention();
      logger.info('cardflow worker: shutting down', { signal });
      if (worker.getState() === 'RUNNING') worker.shutdown();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    logger.info('cardflow worker: polling', {
      taskQueue: temporal.taskQueue,
      address: temporal.address,
      namespace: temporal.namespace,
      codecKeyId: currentKeyId,
      codecKeySource: keySource,
      maxCachedWorkflows: worker.workflows.options.maxCachedWorkflows,
      workflowHeapMib: heapLimitMib ?? 'the process limit',
      metrics: metrics ? `http://${metrics.bindAddress}/metrics` : 'off',
      tracing: tracing ? 'otlp' : 'off',
      notifications: notifications ? new URL(notifications.target.url).origin : 'off',
      version: version ? versionString(version) : 'unversioned',
    });
    const running = worker.run();
    if (version && versioning.bootstrap !== 'off')
      // The version exists once this worker's pollers reached the server, so this runs beside them.
      bootstrapCurrentVersion(connection, {
        namespace: temporal.namespace,
        version,
        identity: worker.workflows.options.identity,
        mode: versioning.bootstrap,
      }).then(
        ({ outcome, current }) => logger.info('cardflow worker: deployment checked', { outcome, current }),
        (error: unknown) => logger.warn('cardflow worker: could not make the first version current', { error }),
      );
    await running;
    logger.info('cardflow worker: stopped');
  } finally {
    await healthServer?.stop();
    await connection.close();
    await provider.close();
    await tracing?.shutdown();
  }
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

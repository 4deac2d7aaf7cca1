/**
 * The cardflow worker process: `node dist/workers/main.js` (`tsx workers/main.ts` from the sources). Configured from the environment
 * (workers/config.ts, api/config.ts, codec keys); on SIGINT or SIGTERM it stops polling, lets running
 * tasks finish (up to the shutdown grace time), closes its connections and exits. Logs are JSON
 * lines on stderr (`logging/logger.ts`, CARDFLOW_LOG_LEVEL), the SDK's and core's included.
 */
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { createProviderClient } from '../api/client';
import { loadProviderConfig } from '../api/config';
import { ensureReconcileSchedule, reconcileSettingsFromEnv } from '../client/reconciliation';
import { dataConverterFromEnv } from '../codec/data-converter';
import { checkEnvironment } from '../config/environment';
import { createLogger } from '../logging/logger';
import { fileStoreFromEnv } from '../storage/from-env';
import { loadTemporalWorkerConfig, workerTuningFromEnv } from './config';
import { createWorker } from './create-worker';
import { limitWorkflowThreadHeap } from './heap-limit';
import { DEFAULT_PROBE_SLOTS, DEFAULT_PROBES_PER_SECOND } from './create-worker';
import { probeTaskQueue } from '../domain/task-queue';
import { prometheusTelemetry, providerCallMetrics, recordProbeBudget, workerMetricsFromEnv } from './telemetry';
import { startVisibilityMetrics } from './visibility-metrics';
import { startTracing, traceProviderCall } from '../telemetry/tracing';

export async function runWorkerProcess(env: Record<string, string | undefined> = process.env): Promise<void> {
  checkEnvironment(env);
  const logger = createLogger({ base: { service: 'worker' } });
  const metrics = workerMetricsFromEnv(env);
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
  const tracing = startTracing('worker', env);
  const temporal = loadTemporalWorkerConfig(env);
  const providerConfig = loadProviderConfig(env);
  const provider = createProviderClient({
    ...providerConfig,
    ...(meter ? { onCall: providerCallMetrics(meter) } : {}),
    ...(tracing ? { wrapCall: (call, send) => traceProviderCall(tracing.tracer, call, send) } : {}),
  });
  // The same converter as the client and the webhook receiver: payloads are encrypted (codec/).
  const { dataConverter, keySource, currentKeyId } = dataConverterFromEnv({ env });
  // Read before connecting: a malformed reconciliation variable stops the worker at start, with its name.
  const reconcile = reconcileSettingsFromEnv(env);
  const connection = await NativeConnection.connect(temporal.connectionOptions);
  try {
    const { probes, workflowHeapMib, ...workerOptions } = workerTuningFromEnv(env);
    // Before the worker creates its workflow threads: they take the limit in force then.
    const heapLimitMib = limitWorkflowThreadHeap(workflowHeapMib);
    const worker = await createWorker({
      connection,
      namespace: temporal.namespace,
      taskQueue: temporal.taskQueue,
      // The merchant key opens sealed PINs and activation codes inside the activities that need them.
      activityDeps: {
        provider,
        merchantPrivateKey: providerConfig.merchantPrivateKey,
        fileStore: fileStoreFromEnv(env),
      },
      workerOptions: { shutdownGraceTime: '10s', dataConverter, ...workerOptions },
      probes,
      ...(tracing ? { tracing } : {}),
    });
    if (reconcile.schedule) {
      // Every worker makes sure the schedule exists with this interval (idempotent); one that cannot
      // still serves its tasks, the next start or `cardflow reconcile --schedule` creates it.
      const client = new Client({ connection, namespace: temporal.namespace, dataConverter });
      await ensureReconcileSchedule(client, { ...reconcile, taskQueue: temporal.taskQueue }).then(
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
    if (meter)
      recordProbeBudget(
        meter,
        { perSecond: probes.perSecond ?? DEFAULT_PROBES_PER_SECOND, slots: probes.slots ?? DEFAULT_PROBE_SLOTS },
        probeTaskQueue(temporal.taskQueue),
      );
    const stop = (signal: NodeJS.Signals) => {
      visibility?.stop();
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
    });
    await worker.run();
    logger.info('cardflow worker: stopped');
  } finally {
    await connection.close();
    await provider.close();
    await tracing?.shutdown();
  }
}

if (require.main === module) {
  runWorkerProcess().catch((error: unknown) => {
    createLogger({ base: { service: 'worker' } }).error(
      `cardflow worker: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}

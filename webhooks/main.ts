/**
 * The webhook receiver as its own process: `npm run webhooks`. Its settings: the README's
 * configuration table (platform/config/schema.ts); a bad one exits 2. It binds loopback by
 * default: a TLS proxy in front is what the provider reaches. `/healthz` and `/readyz` are on the
 * same port. SIGTERM fails readiness at once, serves through the drain interval
 * (platform/health/drain.ts), then finishes the deliveries in progress and exits; SIGINT skips the
 * drain.
 */
import { publicKeyFrom } from '../provider/keys';
import { temporalSettingsFromEnv } from '../platform/temporal/connection';
import { dataConverterFor } from '../platform/codec/data-converter';
import { exitCodeFor, failureMessage, loadConfiguration } from '../platform/config/startup';
import { databaseCheck, keysCheck, temporalCheck } from '../platform/health/checks';
import { createDrain } from '../platform/health/drain';
import { healthRoutes } from '../platform/health/routes';
import { type StructuredLogger, createLogger } from '../platform/logging/logger';
import { openPool } from '../platform/storage/postgres';
import { routeStoreFor } from '../platform/storage/from-config';
import { createProcessRegistry, startMetricsServer } from '../platform/telemetry/metrics-server';
import { compiledBuildId } from '../platform/telemetry/build-id';
import { cardflowVersion } from '../platform/config/version';
import { startTracing } from '../platform/telemetry/tracing';
import { createCardEntityDelivery } from './card-route';
import { createRouteForwarder } from './forwarder';
import { receiverMetrics } from './metrics';
import { tracedForwarder } from './tracing';
import { openPostgresWebhookStore } from './postgres-store';
import { type WebhookReceiverOptions, startWebhookReceiver } from './receiver';
import { connectReceiverTemporal } from './temporal-client';
import { entryPointArgs } from '../platform/config/command-line';
import { configured, type ConfigurationSlice, readConfiguration } from '../platform/config/schema';
import { processEnv } from '../platform/config/process-env';

/** The platform public key the configuration names, or an error naming the variables to set. */
export function platformPublicKeyFrom(config: ConfigurationSlice<'CARDFLOW_PLATFORM_PUBLIC_KEY'>) {
  const found = config.CARDFLOW_PLATFORM_PUBLIC_KEY;
  if (found) return publicKeyFrom(found.value, found.from);
  throw new Error(
    'set CARDFLOW_PLATFORM_PUBLIC_KEY or CARDFLOW_PLATFORM_PUBLIC_KEY_FILE (the platform public key from the provider dashboard)',
  );
}

/**
 * Receiver options that log each delivery as one structured record (request id, category, outcome,
 * the signalled workflow ids, duration; never record contents), and each refused or failed request
 * as a warning with its status and reason. The receiver's own text lines go to debug.
 */
export function receiverLogging(
  logger: StructuredLogger,
): Required<Pick<WebhookReceiverOptions, 'onHandled' | 'onRefused' | 'log'>> {
  return {
    onHandled: (handled) =>
      logger.info('webhook handled', {
        requestId: handled.requestId,
        category: handled.category,
        outcome: handled.outcome,
        workflowIds: handled.workflowIds,
        durationMs: Math.round(handled.settledAtMs - handled.receivedAtMs),
      }),
    onRefused: (refused) =>
      logger.warn(refused.kind === 'failed' ? 'webhook not handled; the provider will retry' : 'webhook refused', {
        httpStatus: refused.httpStatus,
        reason: refused.reason,
      }),
    log: (line) => logger.debug(line),
  };
}

/**
 * Everything the receiver reads from the environment and secret files, before contacting anything.
 */
export function receiverSettings(env: Record<string, string | undefined>) {
  // Every variable against its rule, all problems in one error (platform/config/schema.ts).
  const config = readConfiguration(env);
  const platformPublicKey = platformPublicKeyFrom(config);
  // envconfig's own variables (a profile file, TLS paths) are checked before anything is contacted
  // too.
  temporalSettingsFromEnv(env, config);
  return {
    config,
    env,
    platformPublicKey,
    host: configured(config, 'CARDFLOW_WEBHOOK_HOST'),
    port: configured(config, 'CARDFLOW_WEBHOOK_PORT'),
    dataDir: configured(config, 'CARDFLOW_WEBHOOK_DATA_DIR'),
    codec: dataConverterFor(config),
    databaseUrl: config.CARDFLOW_DATABASE_URL?.value,
    metricsAddress: config.CARDFLOW_METRICS_ADDRESS,
    drainMs: configured(config, 'CARDFLOW_WEBHOOK_DRAIN_SECONDS') * 1000,
  };
}

async function main(logger: StructuredLogger): Promise<void> {
  const { config, env, platformPublicKey, host, port, dataDir, codec, databaseUrl, metricsAddress, drainMs } =
    loadConfiguration(() => receiverSettings(processEnv()));
  const drain = createDrain(drainMs);
  const { dataConverter, keySource, currentKeyId } = codec;
  const tracing = startTracing('webhooks', config);
  const temporal = await connectReceiverTemporal({
    env,
    configuration: config,
    dataConverter,
    tracing: tracing !== undefined,
    logger,
  });
  // One pool for the delivery log, the routes and the readiness check.
  const pool = databaseUrl ? openPool(databaseUrl, { max: 8 }) : undefined;
  // Routes the workers record before their provider calls: the owners of orders, holders,
  // addresses.
  const routes = routeStoreFor(config, pool ? { pool } : {});
  const forwarder = createRouteForwarder(temporal.client, { routes });
  const store = pool && databaseUrl ? await openPostgresWebhookStore(databaseUrl, { pool }) : undefined;
  const logging = receiverLogging(logger);
  const registry = metricsAddress
    ? createProcessRegistry({ buildId: compiledBuildId(), version: cardflowVersion() })
    : undefined;
  const metrics = registry ? receiverMetrics(registry) : undefined;
  const receiver = await startWebhookReceiver({
    platformPublicKey,
    forwarder: tracing ? tracedForwarder(forwarder, tracing.tracer) : forwarder,
    cardEntities: createCardEntityDelivery(temporal.client, {
      taskQueue: configured(config, 'CARDFLOW_TASK_QUEUE'),
    }),
    ...(store ? { store } : {}),
    host,
    port,
    ...(dataDir ? { dataDir } : {}),
    log: logging.log,
    onHandled: (handled) => {
      logging.onHandled(handled);
      metrics?.onHandled(handled);
    },
    onRefused: (refused) => {
      logging.onRefused(refused);
      metrics?.onRefused(refused);
    },
    health: healthRoutes([
      drain.check,
      temporalCheck(temporal.connection),
      ...(pool ? [databaseCheck(pool)] : []),
      keysCheck('keys', () => `codec key ${currentKeyId} (${keySource}), platform public key`),
    ]),
  });
  const metricsServer = metricsAddress && registry ? await startMetricsServer(metricsAddress, registry) : undefined;
  logger.info('webhook receiver listening', {
    url: receiver.url,
    deliveryLog: store ? 'postgresql' : 'file',
    namespace: temporal.namespace,
    codecKeySource: keySource,
    codecKeyId: currentKeyId,
    metrics: metricsServer?.url ?? 'off',
  });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // SIGTERM is an orchestrator's (compose, Kubernetes), with a balancer to drain; SIGINT is a
    // person's Ctrl-C, who waits for nothing.
    const drained = signal === 'SIGTERM';
    logger.info(
      drained
        ? 'stopping the webhook receiver: not ready, still accepting until the drain ends'
        : 'stopping the webhook receiver',
      { signal, ...(drained ? { drainMs } : {}) },
    );
    (drained ? drain.drainThenStop(() => receiver.stop()) : receiver.stop())
      .then(() => metricsServer?.stop())
      .then(() => store?.close())
      .then(() => routes.close())
      .then(() => pool?.end())
      .then(() => temporal.close())
      .then(() => tracing?.shutdown())
      .then(() => logger.info('webhook receiver stopped'))
      .catch((error: unknown) => {
        logger.error('webhook receiver did not stop cleanly', { error });
        process.exitCode = 1;
      });
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

if (require.main === module) {
  entryPointArgs({
    name: 'npm run webhooks',
    summary: "the webhook receiver: verifies the provider's deliveries and signals the workflows they concern",
    details: ['Exit codes: 2 a configuration problem (nothing started), 1 a failure after start-up.'],
  });
  const logger = createLogger({ base: { service: 'webhooks' } });
  main(logger).catch((error: unknown) => {
    logger.error(`webhooks: ${failureMessage(error)}`);
    process.exitCode = exitCodeFor(error);
  });
}

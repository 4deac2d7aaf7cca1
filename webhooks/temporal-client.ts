/**
 * The receiver's Temporal client, over the SDK core's native connection (the worker's, in Rust)
 * instead of the client library's `@grpc/grpc-js` one. Every signalled webhook costs a signal;
 * through grpc-js, HTTP/2 framing, metadata and the channel's bookkeeping ran in the receiver's
 * JavaScript and were its largest cost per delivery: 2.9-3.4 ms of CPU per Temporal call pair
 * against 1.3-1.9 ms natively (300 pairs, three rounds). The native connection takes the same
 * settings from the environment (platform/temporal/connection.ts, `@temporalio/envconfig` types
 * them for it), answers the same health check, and the client on top of it (data converter,
 * interceptors) is the same.
 */
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { Client, type DataConverter } from '@temporalio/client';
import { NativeConnection, type NativeConnectionOptions, Runtime } from '@temporalio/worker';
import { temporalSettingsFromEnv } from '../platform/temporal/connection';
import { type Configuration, readConfiguration } from '../platform/config/schema';
import { processEnv } from '../platform/config/process-env';
import { tracingConfigured } from '../platform/telemetry/tracing-config';
import type { StructuredLogger } from '../platform/logging/logger';

export interface ReceiverTemporal {
  client: Client;
  connection: NativeConnection;
  namespace: string;
  close(): Promise<void>;
}

/** Connects as `connectTemporalClient` does (same variables, data converter, tracing), natively. */
export async function connectReceiverTemporal(opts: {
  env?: Record<string, string | undefined>;
  /** The configuration the entry point already read from `env`, instead of reading it again. */
  configuration?: Configuration;
  dataConverter: DataConverter;
  tracing?: boolean;
  /**
   * Installs the SDK runtime the native connection runs on, with this logger (core's messages
   * forwarded to it) and without the SDK's own SIGINT / SIGTERM handling, which would close the
   * connection under deliveries still in progress: the receiver's shutdown closes it last.
   */
  logger?: StructuredLogger;
}): Promise<ReceiverTemporal> {
  const env = opts.env ?? processEnv();
  const config = opts.configuration ?? readConfiguration(env);
  if (opts.logger && Runtime.instantiator === undefined) {
    Runtime.install({
      shutdownSignals: [],
      logger: opts.logger,
      telemetryOptions: { logging: { filter: { core: opts.logger.level, other: 'ERROR' }, forward: {} } },
    });
  }
  const settings = temporalSettingsFromEnv(env, config);
  const connection = await NativeConnection.connect(settings.connectionOptions as NativeConnectionOptions);
  const client = new Client({
    connection,
    namespace: settings.namespace,
    dataConverter: opts.dataConverter,
    ...((opts.tracing ?? tracingConfigured(config))
      ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } }
      : {}),
  });
  return { client, connection, namespace: settings.namespace, close: () => connection.close() };
}

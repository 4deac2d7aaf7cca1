/**
 * Temporal connection from the environment, for the client, the CLI, the webhook receiver and `npm
 * start`.
 *
 * Settings come from `@temporalio/envconfig`, so the same variables and profile file as the
 * Temporal CLI apply: `TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`, and for Temporal Cloud
 * `TEMPORAL_API_KEY` or mTLS (`TEMPORAL_TLS_CLIENT_CERT_PATH`, `TEMPORAL_TLS_CLIENT_KEY_PATH`,
 * ...), or a profile in `temporal.toml` (`TEMPORAL_PROFILE`, `TEMPORAL_CONFIG_FILE`). With nothing
 * set, the local dev server on 127.0.0.1:7233, namespace `default` (loopback, not `localhost`,
 * which may resolve to ::1 while the dev server binds IPv4 only).
 */
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { Client, Connection, type ConnectionOptions, type DataConverter } from '@temporalio/client';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { connect as tcpConnect } from 'node:net';
import { dataConverterFor } from '../codec/data-converter';
import { type Configuration, type ConfigurationSlice, readConfiguration, schemaDefault } from '../config/schema';
import { retryWhileUnavailable, type UnavailableRetry } from './unavailable-retry';
import { tracingConfigured } from '../telemetry/tracing-config';
import { processEnv } from '../config/process-env';

export const DEFAULT_TEMPORAL_ADDRESS = schemaDefault('TEMPORAL_ADDRESS');
export const DEFAULT_TEMPORAL_NAMESPACE = schemaDefault('TEMPORAL_NAMESPACE');

export interface TemporalSettings {
  connectionOptions: ConnectionOptions;
  namespace: string;
}

/**
 * The connection settings `@temporalio/envconfig` reads from `env` and the optional profile file:
 * its own variables and rules, as the Temporal CLI reads them, which is why
 * platform/config/schema.ts declares only the address, namespace and API key. Those three it takes
 * as the configuration parsed them (the key inline or from its file), never from `env` again.
 */
export function temporalSettingsFromEnv(
  env: Record<string, string | undefined>,
  configuration: ConfigurationSlice<'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_API_KEY'>,
): TemporalSettings {
  const parsed = {
    TEMPORAL_ADDRESS: configuration.TEMPORAL_ADDRESS,
    TEMPORAL_NAMESPACE: configuration.TEMPORAL_NAMESPACE,
    TEMPORAL_API_KEY: configuration.TEMPORAL_API_KEY?.value,
  };
  const given = (entries: Record<string, string | undefined>) =>
    Object.entries(entries).filter((e): e is [string, string] => typeof e[1] === 'string');
  // The three are only ever the parsed values: a raw text may be a blank (unset, as the schema
  // reads it) or, for the key, stand beside its file form.
  const unparsed = { ...env, TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: undefined, TEMPORAL_API_KEY: undefined };
  const overrideEnvVars = Object.fromEntries([...given(unparsed), ...given(parsed)]);
  const config = loadClientConnectConfig({ overrideEnvVars });
  // envconfig types its options for the worker's NativeConnection; the client Connection takes the
  // same fields.
  const connectionOptions = { ...config.connectionOptions } as ConnectionOptions;
  connectionOptions.address ??= DEFAULT_TEMPORAL_ADDRESS;
  return { connectionOptions, namespace: config.namespace ?? DEFAULT_TEMPORAL_NAMESPACE };
}

/**
 * Nothing accepted a connection at the Temporal address: no server, no proxy, a wrong port or
 * host. Told apart from a server that answers but is not serving (a restart behind a proxy, a
 * namespace cache loading), which the retry window waits for.
 */
export class TemporalUnreachableError extends Error {
  override readonly name = 'TemporalUnreachableError';
  constructor(
    readonly address: string,
    reason: string,
  ) {
    super(
      `nothing listens at the Temporal address ${address} (${reason}); is the server running, and is TEMPORAL_ADDRESS right?`,
    );
  }
}

/** `host` and `port` of a gRPC address (`host:port`, `[v6]:port`; port 7233 when none). */
export function splitAddress(address: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(address);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 7233) };
  const colon = address.lastIndexOf(':');
  if (colon < 0 || address.indexOf(':') !== colon) return { host: address, port: 7233 };
  return { host: address.slice(0, colon), port: Number(address.slice(colon + 1)) };
}

/**
 * Resolves once something accepts a TCP connection at `address` within `timeoutMs`; else a
 * {@link TemporalUnreachableError}. Only the handshake: nothing is sent.
 */
export function expectListener(address: string, timeoutMs: number): Promise<void> {
  const { host, port } = splitAddress(address);
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host, port });
    const fail = (reason: string) => {
      socket.destroy();
      reject(new TemporalUnreachableError(address, reason));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs / 1000} s`));
    socket.once('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
  });
}

export interface TemporalClientHandle {
  client: Client;
  connection: Connection;
  namespace: string;
  close(): Promise<void>;
}

/**
 * Connects a Client as the environment says, with cardflow's data converter: payloads are encrypted
 * with the keys of `CARDFLOW_CODEC_KEYS` / `CARDFLOW_CODEC_KEYS_FILE` (the worker's), so inputs
 * never reach Temporal in clear and results can be read. Without keys it refuses to start, naming
 * the variables (a checkout of cardflow outside production falls back to its dev key).
 * `dataConverter` replaces the one from the environment (tests, or keys held elsewhere). Reads the
 * whole configuration first (platform/config/schema.ts), so a backend gets every problem of its
 * environment at once, a mixed environment included (platform/config/environment.ts).
 */
export async function connectTemporalClient(
  opts: {
    env?: Record<string, string | undefined>;
    /** The configuration an entry point already read from `env`, instead of reading it again. */
    configuration?: Configuration;
    dataConverter?: DataConverter;
    connectTimeoutMs?: number;
    /**
     * Waits for a Temporal that is restarting (platform/temporal/unavailable-retry.ts); without it,
     * one try.
     */
    whileUnavailable?: UnavailableRetry;
    /**
     * First check that something listens at the address, failing with a
     * {@link TemporalUnreachableError} after this long instead of waiting out the connect deadline
     * and the retry window for a server that is not there at all (the CLI: 2 s). Something that
     * accepts the connection (the server, or the proxy in front of a restarting one) is ridden out.
     */
    listenerWithinMs?: number | undefined;
    /**
     * Carry the caller's OpenTelemetry trace into what the client starts and signals (the
     * workflow's spans become its children). Default: when the environment configures an OTLP
     * endpoint (platform/telemetry/tracing-config.ts). Spans go to the global tracer provider,
     * which the caller (a backend's own OpenTelemetry set-up, or `startTracing`) installs.
     */
    tracing?: boolean;
  } = {},
): Promise<TemporalClientHandle> {
  const env = opts.env ?? processEnv();
  const config = opts.configuration ?? readConfiguration(env);
  const dataConverter = opts.dataConverter ?? dataConverterFor(config).dataConverter;
  const settings = temporalSettingsFromEnv(env, config);
  if (opts.listenerWithinMs !== undefined)
    await expectListener(settings.connectionOptions.address ?? DEFAULT_TEMPORAL_ADDRESS, opts.listenerWithinMs);
  const connect = () =>
    Connection.connect({ ...settings.connectionOptions, connectTimeout: opts.connectTimeoutMs ?? 10_000 });
  const connection = opts.whileUnavailable
    ? await retryWhileUnavailable(
        settings.connectionOptions.address ?? DEFAULT_TEMPORAL_ADDRESS,
        connect,
        opts.whileUnavailable,
      )
    : await connect();
  const client = new Client({
    connection,
    namespace: settings.namespace,
    dataConverter,
    ...((opts.tracing ?? tracingConfigured(config))
      ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } }
      : {}),
  });
  return { client, connection, namespace: settings.namespace, close: () => connection.close() };
}

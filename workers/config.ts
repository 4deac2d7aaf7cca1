/**
 * Worker configuration from the environment. Provider settings come from `api/config.ts`
 * (CARDFLOW_PROVIDER_*). The Temporal connection is read exactly as the client reads it
 * (`client/connection.ts`, through `@temporalio/envconfig`), so the same variables reach Temporal
 * Cloud: `TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`, `TEMPORAL_API_KEY`, mTLS
 * (`TEMPORAL_TLS_CLIENT_CERT_PATH`, `TEMPORAL_TLS_CLIENT_KEY_PATH`, ...) or a `TEMPORAL_PROFILE`.
 *
 * | variable | default |
 * |---|---|
 * | TEMPORAL_ADDRESS (alias CARDFLOW_TEMPORAL_ADDRESS) | 127.0.0.1:7233 |
 * | TEMPORAL_NAMESPACE (alias CARDFLOW_TEMPORAL_NAMESPACE) | default |
 * | CARDFLOW_TASK_QUEUE | cardflow |
 * | CARDFLOW_FILE_STORE_DIR | .data/files (work-order supporting files referenced by name) |
 */
import path from 'node:path';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { temporalSettingsFromEnv } from '../client/connection';
import { CARDFLOW_TASK_QUEUE } from '../domain/task-queue';

export interface TemporalWorkerConfig {
  /** Address, TLS and API key as envconfig resolved them. */
  connectionOptions: NativeConnectionOptions;
  address: string;
  namespace: string;
  taskQueue: string;
}

type Env = Record<string, string | undefined>;

function first(env: Env, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

export function loadTemporalWorkerConfig(env: Env = process.env): TemporalWorkerConfig {
  const settings = temporalSettingsFromEnv({
    ...env,
    TEMPORAL_ADDRESS: first(env, 'CARDFLOW_TEMPORAL_ADDRESS', 'TEMPORAL_ADDRESS'),
    TEMPORAL_NAMESPACE: first(env, 'CARDFLOW_TEMPORAL_NAMESPACE', 'TEMPORAL_NAMESPACE'),
  });
  // envconfig types its options for NativeConnection; client/connection.ts widens them for the client.
  const connectionOptions = settings.connectionOptions as NativeConnectionOptions;
  return {
    connectionOptions,
    address: connectionOptions.address ?? '127.0.0.1:7233',
    namespace: settings.namespace,
    taskQueue: first(env, 'CARDFLOW_TASK_QUEUE') ?? CARDFLOW_TASK_QUEUE,
  };
}

/** Where the worker reads work-order supporting files referenced by name (`{ ref }`); nothing else is read. */
export function fileStoreDirFromEnv(env: Env = process.env): string {
  return path.resolve(first(env, 'CARDFLOW_FILE_STORE_DIR') ?? path.join('.data', 'files'));
}

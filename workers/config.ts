/**
 * Worker configuration from the environment. Provider settings come from `api/config.ts`
 * (CARDFLOW_PROVIDER_*); Temporal settings:
 *
 * | variable | default |
 * |---|---|
 * | CARDFLOW_TEMPORAL_ADDRESS (or TEMPORAL_ADDRESS) | 127.0.0.1:7233 |
 * | CARDFLOW_TEMPORAL_NAMESPACE (or TEMPORAL_NAMESPACE) | default |
 * | CARDFLOW_TASK_QUEUE | cardflow |
 *
 * TLS / API keys for a remote Temporal come later (configuration only).
 */
import { CARDFLOW_TASK_QUEUE } from '../domain/task-queue';

export interface TemporalWorkerConfig {
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
  return {
    address: first(env, 'CARDFLOW_TEMPORAL_ADDRESS', 'TEMPORAL_ADDRESS') ?? '127.0.0.1:7233',
    namespace: first(env, 'CARDFLOW_TEMPORAL_NAMESPACE', 'TEMPORAL_NAMESPACE') ?? 'default',
    taskQueue: first(env, 'CARDFLOW_TASK_QUEUE') ?? CARDFLOW_TASK_QUEUE,
  };
}

/**
 * Worker configuration from the environment. Provider settings come from `provider/config.ts`; the
 * Temporal connection is read exactly as the client reads it (platform/temporal/connection.ts,
 * through `@temporalio/envconfig`), so the same variables reach a cluster or Temporal Cloud. Every
 * variable, with its meaning, default and rule: the README's configuration table, generated from
 * platform/config/schema.ts (`npm run config-table`).
 */
import type { NativeConnectionOptions } from '@temporalio/worker';
import { temporalSettingsFromEnv } from '../platform/temporal/connection';
import type { ProbeBudget } from './create-worker';
import { configured, type ConfigurationSlice, schemaDefault } from '../platform/config/schema';

export interface TemporalWorkerConfig {
  /** Address, TLS and API key as envconfig resolved them. */
  connectionOptions: NativeConnectionOptions;
  address: string;
  namespace: string;
  taskQueue: string;
}

type Env = Record<string, string | undefined>;

/**
 * The connection `@temporalio/envconfig` reads from `env`, with the worker's aliases and queue from
 * the configuration.
 */
export function loadTemporalWorkerConfig(
  env: Env,
  config: ConfigurationSlice<
    | 'TEMPORAL_ADDRESS'
    | 'TEMPORAL_NAMESPACE'
    | 'CARDFLOW_TEMPORAL_ADDRESS'
    | 'CARDFLOW_TEMPORAL_NAMESPACE'
    | 'CARDFLOW_TASK_QUEUE'
    | 'TEMPORAL_API_KEY'
  >,
): TemporalWorkerConfig {
  const address = config.CARDFLOW_TEMPORAL_ADDRESS ?? config.TEMPORAL_ADDRESS;
  const namespace = config.CARDFLOW_TEMPORAL_NAMESPACE ?? config.TEMPORAL_NAMESPACE;
  const settings = temporalSettingsFromEnv(env, {
    ...config,
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: namespace,
  });
  // envconfig types its options for NativeConnection; platform/temporal/connection.ts widens them
  // for the client.
  const connectionOptions = settings.connectionOptions as NativeConnectionOptions;
  return {
    connectionOptions,
    address: connectionOptions.address ?? schemaDefault('TEMPORAL_ADDRESS'),
    namespace: settings.namespace,
    taskQueue: configured(config, 'CARDFLOW_TASK_QUEUE'),
  };
}

/**
 * On SIGTERM the worker stops polling and lets the tasks in hand finish for this long; what still
 * runs then is cancelled and retried on other workers. An orchestrator's stop timeout must be
 * longer (compose `stop_grace_period`, Kubernetes `terminationGracePeriodSeconds`).
 */
export const SHUTDOWN_GRACE_SECONDS = 10;

/**
 * Worker tuning. A cached workflow costs up to about 2 MiB of the workflow threads' memory (`npm
 * run bench` (d) measures it). Onboardings parked for days in review need not stay cached: an
 * evicted one is replayed from its short history when its next event arrives (a few milliseconds).
 * So the cache is sized from a memory budget by default, never from the heap as the SDK would
 * (which lets thousands of parked workflows take gigabytes).
 */
export const MIB_PER_CACHED_WORKFLOW = 2;
/** The default memory budget of the workflow cache. */
export const DEFAULT_CACHE_BUDGET_MIB = schemaDefault('CARDFLOW_WORKER_CACHE_BUDGET_MIB');

/** The cache size a memory budget allows. */
export function cacheSizeFor(budgetMib: number): number {
  return Math.max(1, Math.floor(budgetMib / MIB_PER_CACHED_WORKFLOW));
}

/**
 * Room in the workflow threads' heap beyond the cached workflows: the replay of an evicted one,
 * activations in flight, the bundle's code.
 */
export const WORKFLOW_HEAP_HEADROOM_MIB = 128;

/**
 * The V8 heap limit of the workflow threads for a cache of `cached` workflows. Without one V8
 * sizes the heap from the machine (4 GiB on 24 GiB) and collects lazily: with 192 cached (about
 * 300 MiB live) the thread's heap grows to over a GiB of mostly garbage, and the process keeps
 * that memory resident after the collection. A limit near what is live makes V8 collect sooner.
 */
export function workflowHeapFor(cached: number): number {
  return cached * MIB_PER_CACHED_WORKFLOW + WORKFLOW_HEAP_HEADROOM_MIB;
}

export interface WorkerTuning {
  maxCachedWorkflows?: number;
  /** The V8 heap limit for the workflow threads (workers/heap-limit.ts). */
  workflowHeapMib: number;
  maxConcurrentActivityTaskExecutions?: number;
  probes: ProbeBudget;
}

/**
 * The tuning the variables ask for (platform/config/schema.ts checks each one's rule), the defaults
 * above filled in.
 */
export function workerTuning(
  config: ConfigurationSlice<
    | 'CARDFLOW_WORKER_CACHE_BUDGET_MIB'
    | 'CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS'
    | 'CARDFLOW_WORKER_HEAP_MIB'
    | 'CARDFLOW_WORKER_MAX_CONCURRENT_ACTIVITIES'
    | 'CARDFLOW_PROBES_PER_SECOND'
    | 'CARDFLOW_PROBE_SLOTS'
  >,
): WorkerTuning {
  const budget = config.CARDFLOW_WORKER_CACHE_BUDGET_MIB;
  const maxCachedWorkflows =
    config.CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS ?? (budget === undefined ? undefined : cacheSizeFor(budget));
  const workflowHeapMib =
    config.CARDFLOW_WORKER_HEAP_MIB ??
    workflowHeapFor(maxCachedWorkflows ?? cacheSizeFor(budget ?? DEFAULT_CACHE_BUDGET_MIB));
  const maxConcurrentActivityTaskExecutions = config.CARDFLOW_WORKER_MAX_CONCURRENT_ACTIVITIES;
  const perSecond = config.CARDFLOW_PROBES_PER_SECOND;
  const slots = config.CARDFLOW_PROBE_SLOTS;
  return {
    ...(maxCachedWorkflows === undefined ? {} : { maxCachedWorkflows }),
    ...(maxConcurrentActivityTaskExecutions === undefined ? {} : { maxConcurrentActivityTaskExecutions }),
    workflowHeapMib,
    probes: { ...(perSecond === undefined ? {} : { perSecond }), ...(slots === undefined ? {} : { slots }) },
  };
}

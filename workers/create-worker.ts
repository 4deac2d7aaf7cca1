/**
 * `createWorker(opts)`: cardflow's worker, two SDK Workers run as one: the first hosts the
 * workflows and every activity on the task queue, the second the probes of long waits on the
 * probe queue beside it (domain/task-queue.ts), rate-limited for every worker of the queue by
 * the server (`maxTaskQueueActivitiesPerSecond`) and with slots of its own, so parked customers'
 * probes neither flood the provider nor delay a customer's card creation. Activities are built
 * once from their dependencies (`createActivities`); tests may override single activities by
 * spreading the real ones.
 */
import {
  bundleWorkflowCode,
  Worker,
  type NativeConnection,
  type WorkerOptions,
  type WorkflowBundle,
} from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createActivities, type ActivityDeps, type CardflowActivities } from '../activities';
import { failureConverterPath } from '../codec/data-converter';
import { CARDFLOW_TASK_QUEUE, probeTaskQueue } from '../domain/task-queue';
import { CardflowWorker } from './cardflow-worker';
import { cacheSizeFor, DEFAULT_CACHE_BUDGET_MIB } from './config';
import { createReconcilePort } from './reconciliation-port';

/** Entry file of the workflow bundle. */
export const WORKFLOWS_PATH = require.resolve('../workflows');

/**
 * The workflow interceptors of every cardflow bundle: each workflow's start and outcome counted on
 * the worker's metrics (nothing is recorded when the worker has no metrics endpoint).
 */
const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('../workflows/support/outcome-metrics')];

/**
 * How every cardflow workflow bundle is made: the libraries of
 * `workflows/support/shared-libraries.ts` are evaluated once per worker and shared by every
 * workflow run, instead of once per run.
 */
const BUNDLE_OPTIONS = {
  workflowsPath: WORKFLOWS_PATH,
  preloadModules: [require.resolve('../workflows/support/shared-libraries')],
  workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
};

/**
 * The workflow bundle `npm run build` writes next to the compiled code (`dist/workflow-bundle.js`).
 * A compiled worker loads it instead of running webpack at start-up (seconds of CPU per start,
 * and webpack is then never loaded in production); under tsx or jest the sources are bundled.
 */
export const PREBUILT_BUNDLE_PATH = path.resolve(__dirname, '..', 'workflow-bundle.js');

/** Writes {@link PREBUILT_BUNDLE_PATH} from the compiled workflows (the last step of `npm run build`). */
export async function writePrebuiltBundle(): Promise<string> {
  // The failure converter goes into the bundle: with a prebuilt bundle the worker cannot add it.
  const { code } = await bundleWorkflowCode({
    ...BUNDLE_OPTIONS,
    failureConverterPath,
    logger: quietBundlerLogger,
  });
  await writeFile(PREBUILT_BUNDLE_PATH, code);
  return PREBUILT_BUNDLE_PATH;
}

function defaultWorkflowCode(
  bundlerOptions: WorkerOptions['bundlerOptions'],
  interceptors: WorkerOptions['interceptors'],
): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath' | 'bundlerOptions' | 'interceptors'> {
  const compiled = __filename.endsWith('.js');
  return compiled && existsSync(PREBUILT_BUNDLE_PATH)
    ? { workflowBundle: { codePath: PREBUILT_BUNDLE_PATH } }
    : {
        workflowsPath: BUNDLE_OPTIONS.workflowsPath,
        interceptors: {
          ...interceptors,
          workflowModules: [...WORKFLOW_INTERCEPTOR_MODULES, ...(interceptors?.workflowModules ?? [])],
        },
        bundlerOptions: {
          ...bundlerOptions,
          preloadModules: [...BUNDLE_OPTIONS.preloadModules, ...(bundlerOptions?.preloadModules ?? [])],
        },
      };
}

export interface CreateWorkerOptions {
  connection: NativeConnection;
  /** Default `default`. */
  namespace?: string;
  /** Default {@link CARDFLOW_TASK_QUEUE}. */
  taskQueue?: string;
  /** Dependencies of the activities (provider client, logger). */
  activityDeps: ActivityDeps;
  /** Replaces some activities (tests). */
  activityOverrides?: Partial<CardflowActivities>;
  /** A prebuilt bundle (see {@link bundleCardflowWorkflows}); default: {@link PREBUILT_BUNDLE_PATH} when compiled, else bundle `workflows/` now. */
  workflowBundle?: WorkflowBundle;
  /**
   * Further Worker options (concurrency, identity, shutdown grace...).
   * `maxCachedWorkflows` @default the cache a 384 MiB budget allows (workers/config.ts)
   */
  workerOptions?: Omit<
    WorkerOptions,
    'connection' | 'namespace' | 'taskQueue' | 'activities' | 'workflowsPath' | 'workflowBundle'
  >;
  /** The probe queue's budget. */
  probes?: ProbeBudget;
}

/** How hard the probes of long waits may press on the provider. */
export interface ProbeBudget {
  /**
   * Probes started per second on the probe queue, across every worker polling it (a server-side limit).
   * @default {@link DEFAULT_PROBES_PER_SECOND}
   */
  perSecond?: number;
  /**
   * Probes running at once in this worker.
   * @default {@link DEFAULT_PROBE_SLOTS}
   */
  slots?: number;
}

/** A provider answers a few hundred requests a second; probes take a small, steady share of that. */
export const DEFAULT_PROBES_PER_SECOND = 20;
/** An operation's long poll may hold its slot for minutes (heartbeating): enough slots that those never block probes. */
export const DEFAULT_PROBE_SLOTS = 50;

/** Bundles the workflows once, for processes that start several workers (tests, bench). */
export function bundleCardflowWorkflows(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ ...BUNDLE_OPTIONS, logger: quietBundlerLogger });
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string, meta?: Record<string, unknown>) => console.warn(message, meta ?? ''),
  error: (message: string, meta?: Record<string, unknown>) => console.error(message, meta ?? ''),
};

export async function createWorker(opts: CreateWorkerOptions): Promise<CardflowWorker> {
  const taskQueue = opts.taskQueue ?? CARDFLOW_TASK_QUEUE;
  const namespace = opts.namespace ?? 'default';
  // Reconciliation reads visibility and re-delivers events through the worker's own connection.
  const reconciliation =
    opts.activityDeps.reconciliation ??
    createReconcilePort({
      connection: opts.connection,
      namespace,
      ...(opts.workerOptions?.dataConverter ? { dataConverter: opts.workerOptions.dataConverter } : {}),
    });
  const activities = { ...createActivities({ ...opts.activityDeps, reconciliation }), ...opts.activityOverrides };
  const workflows = await Worker.create({
    maxCachedWorkflows: cacheSizeFor(DEFAULT_CACHE_BUDGET_MIB),
    ...opts.workerOptions,
    connection: opts.connection,
    namespace,
    taskQueue,
    activities,
    ...(opts.workflowBundle
      ? { workflowBundle: opts.workflowBundle }
      : defaultWorkflowCode(opts.workerOptions?.bundlerOptions, opts.workerOptions?.interceptors)),
  });
  const { maxCachedWorkflows: _cache, ...activityOptions } = opts.workerOptions ?? {};
  const probes = await Worker.create({
    ...activityOptions,
    connection: opts.connection,
    namespace,
    taskQueue: probeTaskQueue(taskQueue),
    activities,
    maxTaskQueueActivitiesPerSecond: opts.probes?.perSecond ?? DEFAULT_PROBES_PER_SECOND,
    maxConcurrentActivityTaskExecutions: opts.probes?.slots ?? DEFAULT_PROBE_SLOTS,
  });
  return new CardflowWorker(workflows, probes);
}

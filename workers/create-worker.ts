/**
 * `createWorker(opts)`: one Worker hosting cardflow's workflows and activities on a task queue.
 * Activities are built once from their dependencies (`createActivities`); tests may override
 * single activities by spreading the real ones.
 */
import {
  bundleWorkflowCode,
  Worker,
  type NativeConnection,
  type WorkerOptions,
  type WorkflowBundle,
} from '@temporalio/worker';
import { createActivities, type ActivityDeps, type CardflowActivities } from '../activities';
import { CARDFLOW_TASK_QUEUE } from '../domain/task-queue';
import { createReconcilePort } from './reconciliation-port';

/** Entry file of the workflow bundle. */
export const WORKFLOWS_PATH = require.resolve('../workflows');

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
  /** A prebuilt bundle (see {@link bundleCardflowWorkflows}); default: bundle `workflows/` now. */
  workflowBundle?: WorkflowBundle;
  /** Further Worker options (concurrency, identity, shutdown grace...). */
  workerOptions?: Omit<
    WorkerOptions,
    'connection' | 'namespace' | 'taskQueue' | 'activities' | 'workflowsPath' | 'workflowBundle'
  >;
}

/** Bundles the workflows once, for processes that start several workers (tests, bench). */
export function bundleCardflowWorkflows(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger });
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string, meta?: Record<string, unknown>) => console.warn(message, meta ?? ''),
  error: (message: string, meta?: Record<string, unknown>) => console.error(message, meta ?? ''),
};

export async function createWorker(opts: CreateWorkerOptions): Promise<Worker> {
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
  return Worker.create({
    ...opts.workerOptions,
    connection: opts.connection,
    namespace,
    taskQueue: opts.taskQueue ?? CARDFLOW_TASK_QUEUE,
    activities,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
  });
}

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
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createActivities, type ActivityDeps, type CardflowActivities } from '../activities';
import { failureConverterPath } from '../codec/data-converter';
import { CARDFLOW_TASK_QUEUE } from '../domain/task-queue';

/** Entry file of the workflow bundle. */
export const WORKFLOWS_PATH = require.resolve('../workflows');

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
    workflowsPath: WORKFLOWS_PATH,
    failureConverterPath,
    logger: quietBundlerLogger,
  });
  await writeFile(PREBUILT_BUNDLE_PATH, code);
  return PREBUILT_BUNDLE_PATH;
}

function defaultWorkflowCode(): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  const compiled = __filename.endsWith('.js');
  return compiled && existsSync(PREBUILT_BUNDLE_PATH)
    ? { workflowBundle: { codePath: PREBUILT_BUNDLE_PATH } }
    : { workflowsPath: WORKFLOWS_PATH };
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
  const activities = { ...createActivities(opts.activityDeps), ...opts.activityOverrides };
  return Worker.create({
    ...opts.workerOptions,
    connection: opts.connection,
    namespace: opts.namespace ?? 'default',
    taskQueue: opts.taskQueue ?? CARDFLOW_TASK_QUEUE,
    activities,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : defaultWorkflowCode()),
  });
}

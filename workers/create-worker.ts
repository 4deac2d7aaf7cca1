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
import { readFile, writeFile } from 'node:fs/promises';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import { workflowSpanSinks } from './workflow-span-sink';
import { createActivities, type ActivityDeps, type CardflowActivities } from '../activities';
import { createFileRouteStore } from '../platform/storage/route-store';
import { createRateGate } from '../activities/rate-gate';
import type { Tracing } from '../platform/telemetry/tracing';
import { failureConverterPath } from '../platform/codec/data-converter';
import { CARDFLOW_TASK_QUEUE, probeTaskQueue } from '../domain/task-queue';
import { CardflowWorker } from './cardflow-worker';
import { cacheSizeFor, DEFAULT_CACHE_BUDGET_MIB } from './config';
import { createReconcilePort } from './reconciliation-temporal';
import { createCardEntityPort } from './card-entity-port';
import { PREBUILT_BUNDLE_PATH, buildIdOf } from '../platform/telemetry/build-id';
import { deploymentOptions } from './versioning';
import { snakeCaseActivityMetricTags } from './metric-tags';
import { schemaDefault } from '../platform/config/schema';

/** Entry file of the workflow bundle. */
export const WORKFLOWS_PATH = require.resolve('../workflows');

/**
 * The workflow interceptors of every cardflow bundle: each workflow's start and outcome counted on
 * the worker's metrics (nothing is recorded when the worker has no metrics endpoint), and
 * OpenTelemetry spans for the runs whose trace is sampled (workflows/interceptors/tracing.ts).
 * A worker with tracing off runs the same bundle and drops the spans (its `exporter` sink does
 * nothing): whether a run traces is read from its history, so a run's commands are the same on
 * every worker of one build.
 */
const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('../workflows/interceptors/outcome-metrics'),
  require.resolve('../workflows/interceptors/tracing'),
];

/**
 * How every cardflow workflow bundle is made: its modules are evaluated once per worker and
 * shared, deep-frozen, by every workflow run, instead of once per run (the SDK's default): the
 * libraries of `workflows/preload/shared-libraries.ts`, then the schemas of
 * `workflows/preload/shared-schemas.ts` (settled before the freeze), then the workflows with
 * everything they import. So no bundle module keeps state of its own between runs
 * (test/unit/workflows/shared-workflow-modules.test.ts); a workflow's state lives in its run.
 * The interceptor modules stay per run: the OpenTelemetry one keeps its tracer in the module.
 */
const BUNDLE_OPTIONS = {
  workflowsPath: WORKFLOWS_PATH,
  preloadModules: [
    require.resolve('../workflows/preload/shared-libraries'),
    require.resolve('../workflows/preload/shared-schemas'),
    WORKFLOWS_PATH,
  ],
  workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
};

/**
 * Writes {@link PREBUILT_BUNDLE_PATH} from the compiled workflows (the last step of `npm run
 * build`).
 */
export async function writePrebuiltBundle(): Promise<string[]> {
  // The failure converter goes into the bundle: with a prebuilt bundle the worker cannot add it.
  const { code } = await bundleCardflowWorkflows({ withFailureConverter: true });
  await writeFile(PREBUILT_BUNDLE_PATH, code);
  return [PREBUILT_BUNDLE_PATH];
}

function defaultWorkflowCode(
  bundlerOptions: WorkerOptions['bundlerOptions'],
  interceptors: WorkerOptions['interceptors'],
): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath' | 'bundlerOptions' | 'interceptors'> {
  const compiled = __filename.endsWith('.js');
  return compiled && existsSync(PREBUILT_BUNDLE_PATH)
    ? { workflowBundle: { codePath: PREBUILT_BUNDLE_PATH }, ...(interceptors ? { interceptors } : {}) }
    : {
        workflowsPath: BUNDLE_OPTIONS.workflowsPath,
        interceptors: {
          ...interceptors,
          workflowModules: [...BUNDLE_OPTIONS.workflowInterceptorModules, ...(interceptors?.workflowModules ?? [])],
        },
        bundlerOptions: {
          ...bundlerOptions,
          preloadModules: [...BUNDLE_OPTIONS.preloadModules, ...(bundlerOptions?.preloadModules ?? [])],
        },
      };
}

/** Workflow code as the SDK takes it: the bundle's code, or the path of a bundle file. */
export type BundleSource = WorkflowBundle | { codePath: string };

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
  /**
   * A prebuilt bundle (see {@link bundleCardflowWorkflows}) or the path of one; default:
   * {@link PREBUILT_BUNDLE_PATH} when compiled, else bundle `workflows/` now.
   */
  workflowBundle?: BundleSource;
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
  /**
   * Traces (platform/telemetry/tracing.ts): activities traced, and the spans of the workflow runs
   * whose trace is sampled exported through the worker's sink (without it they are dropped).
   */
  tracing?: Tracing;
  /**
   * Poll as a version of this Worker Deployment (docs/versioning.md), the build id derived from
   * the workflow bundle ({@link versionedWorkflowCode}). Unset: the worker polls unversioned.
   */
  versioning?: { deploymentName: string };
}

/** How hard the probes of long waits may press on the provider. */
export interface ProbeBudget {
  /**
   * Probes started per second on the probe queue, across every worker polling it (a server-side
   * limit).
   * @default {@link DEFAULT_PROBES_PER_SECOND}
   */
  perSecond?: number;
  /**
   * Probes running at once in this worker.
   * @default {@link DEFAULT_PROBE_SLOTS}
   */
  slots?: number;
}

/**
 * A provider answers a few hundred requests a second; probes take a small, steady share of that.
 */
export const DEFAULT_PROBES_PER_SECOND = schemaDefault('CARDFLOW_PROBES_PER_SECOND');
/**
 * An operation's long poll may hold its slot for minutes (heartbeating): enough slots that those
 * never block probes.
 */
export const DEFAULT_PROBE_SLOTS = schemaDefault('CARDFLOW_PROBE_SLOTS');

/**
 * How long a workflow task waits on the worker that has the workflow cached before any worker
 * may take it (the SDK's default is 10 s). A healthy worker starts its tasks in milliseconds;
 * after a worker died, each of its cached workflows waits this long for its next task, on top of
 * the heartbeat timeout of the activity it was running (docs/timeouts.md).
 */
export const STICKY_TASK_TIMEOUT = '2s';

/**
 * The longest the SDK holds an activity's heartbeat back before sending it (its default is 80% of
 * the heartbeat timeout). Under that default a provider call's heartbeats (3 s timeout) reach the
 * server at best 2.4 s apart, 0.6 s inside the timeout: a worker starved of CPU for that long,
 * its heartbeat late to a busy server, was taken for dead, and on a busy machine again on the
 * next attempt. Sent up to once a second, they leave 2 s. How often an activity heartbeats at all
 * is still its pulse's to decide (activities/heartbeats.ts): a call answered within 1.8 s sends
 * none, and a long poll's pulse (a third of its 10 s timeout) is slower than this.
 */
export const HEARTBEAT_THROTTLE = '1s';

/** Bundles the workflows once, for processes that start several workers (tests, bench). */
export function bundleCardflowWorkflows(
  opts: {
    /** Another entry file (a variant of `workflows/`, e.g. a test's incompatible build). */
    workflowsPath?: string;
    webpackConfigHook?: Parameters<typeof bundleWorkflowCode>[0]['webpackConfigHook'];
    /**
     * Bundle the failure converter in, as `npm run build` does (a worker given the bundle cannot
     * add it).
     */
    withFailureConverter?: boolean;
    /**
     * Workflow interceptor modules placed before cardflow's own (outermost): a replay's view of the
     * calls.
     */
    outerInterceptorModules?: string[];
  } = {},
): Promise<WorkflowBundle> {
  return bundleWorkflowCode({
    ...BUNDLE_OPTIONS,
    workflowInterceptorModules: [...(opts.outerInterceptorModules ?? []), ...BUNDLE_OPTIONS.workflowInterceptorModules],
    ...(opts.workflowsPath ? { workflowsPath: opts.workflowsPath } : {}),
    ...(opts.webpackConfigHook ? { webpackConfigHook: opts.webpackConfigHook } : {}),
    ...(opts.withFailureConverter ? { failureConverterPath } : {}),
    logger: quietBundlerLogger,
  });
}

/**
 * The sinks of a worker without tracing, and of a replay: the spans of sampled runs go nowhere
 * (a worker that registers no `exporter` sink logs an error for every span).
 */
export const DROPPED_SPAN_SINKS = { exporter: { export: { fn: () => undefined } } };

/** The worker options tracing adds: activity interceptors and the workflow spans' sink. */
function tracingOptions(tracing: Tracing | undefined): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  if (!tracing) return { sinks: DROPPED_SPAN_SINKS };
  const options = { tracer: tracing.tracer };
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx, options),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: workflowSpanSinks(tracing),
  };
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string, meta?: Record<string, unknown>) => console.warn(message, meta ?? ''),
  error: (message: string, meta?: Record<string, unknown>) => console.error(message, meta ?? ''),
};

/**
 * The bundle a versioned worker runs and its build id: the hash of the bundle it runs. Traced and
 * untraced workers of one build run the same bundle, so they are one version. A given bundle is
 * hashed as it is; the build's own is `dist/workflow-bundle.js` when compiled, else the sources
 * bundled now exactly as `npm run build` bundles them.
 */
export async function versionedWorkflowCode(
  given: BundleSource | undefined,
): Promise<{ workflowBundle: BundleSource; buildId: string }> {
  if (given) {
    const code = 'code' in given ? given.code : await readFile(given.codePath, 'utf8');
    return { workflowBundle: given, buildId: buildIdOf(code) };
  }
  if (__filename.endsWith('.js') && existsSync(PREBUILT_BUNDLE_PATH))
    return {
      workflowBundle: { codePath: PREBUILT_BUNDLE_PATH },
      buildId: buildIdOf(await readFile(PREBUILT_BUNDLE_PATH, 'utf8')),
    };
  const bundle = await bundleCardflowWorkflows({ withFailureConverter: true });
  return { workflowBundle: bundle, buildId: buildIdOf(bundle.code) };
}

export async function createWorker(opts: CreateWorkerOptions): Promise<CardflowWorker> {
  const taskQueue = opts.taskQueue ?? CARDFLOW_TASK_QUEUE;
  const namespace = opts.namespace ?? 'default';
  // Routes for the webhook receiver: the embedded default is the machine's route file.
  const routes = opts.activityDeps.routes ?? createFileRouteStore();
  // Reconciliation reads visibility and re-delivers events through the worker's own connection.
  const reconciliation =
    opts.activityDeps.reconciliation ??
    createReconcilePort({
      connection: opts.connection,
      namespace,
      taskQueue,
      routes,
      ...(opts.workerOptions?.dataConverter ? { dataConverter: opts.workerOptions.dataConverter } : {}),
    });
  const cardEntities =
    opts.activityDeps.cardEntities ??
    createCardEntityPort({
      connection: opts.connection,
      namespace,
      taskQueue,
      ...(opts.workerOptions?.dataConverter ? { dataConverter: opts.workerOptions.dataConverter } : {}),
    });
  const perSecond = opts.probes?.perSecond ?? DEFAULT_PROBES_PER_SECOND;
  // Re-probes after a probe that could not ask are not activity attempts, which the server's
  // limit counts: they take the same budget in this worker (activities/long-poll.ts).
  const reprobes = opts.activityDeps.reprobes ?? createRateGate(perSecond);
  const activities = {
    ...createActivities({ ...opts.activityDeps, reconciliation, cardEntities, reprobes, routes }),
    ...opts.activityOverrides,
  };
  const traced = tracingOptions(opts.tracing);
  const versioned = opts.versioning ? await versionedWorkflowCode(opts.workflowBundle) : undefined;
  // Both SDK Workers poll as the same version, so the probe queue belongs to it too and a pinned
  // workflow's probes run on its own build's activities.
  const deployment = versioned
    ? {
        workerDeploymentOptions: deploymentOptions({
          deploymentName: opts.versioning!.deploymentName,
          buildId: versioned.buildId,
        }),
      }
    : {};
  const interceptors: WorkerOptions['interceptors'] = {
    ...opts.workerOptions?.interceptors,
    activity: [
      ...(traced.interceptors?.activity ?? []),
      ...(opts.workerOptions?.interceptors?.activity ?? []),
      snakeCaseActivityMetricTags,
    ],
  };
  const workflows = await Worker.create({
    maxCachedWorkflows: cacheSizeFor(DEFAULT_CACHE_BUDGET_MIB),
    stickyQueueScheduleToStartTimeout: STICKY_TASK_TIMEOUT,
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    ...opts.workerOptions,
    interceptors,
    sinks: { ...opts.workerOptions?.sinks, ...traced.sinks },
    connection: opts.connection,
    namespace,
    taskQueue,
    activities,
    ...deployment,
    ...(versioned
      ? { workflowBundle: versioned.workflowBundle }
      : opts.workflowBundle
        ? { workflowBundle: opts.workflowBundle }
        : defaultWorkflowCode(opts.workerOptions?.bundlerOptions, interceptors)),
  });
  const { maxCachedWorkflows: _cache, ...activityOptions } = opts.workerOptions ?? {};
  const probes = await Worker.create({
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    ...activityOptions,
    interceptors: { activity: interceptors.activity ?? [] },
    connection: opts.connection,
    namespace,
    taskQueue: probeTaskQueue(taskQueue),
    activities,
    ...deployment,
    maxTaskQueueActivitiesPerSecond: perSecond,
    maxConcurrentActivityTaskExecutions: opts.probes?.slots ?? DEFAULT_PROBE_SLOTS,
  });
  return new CardflowWorker(workflows, probes);
}

/**
 * Worker Deployments as an operator sees them (docs/versioning.md): each version of cardflow's
 * deployment with its open workflows and whether it has drained, and the routing changes of a
 * rollout: make a version current, ramp one, roll new starts back, retire a drained version.
 * Everything goes through the Temporal API (the WorkflowService deployment calls and visibility),
 * so it works the same against the dev server and a cluster.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/** A refused routing change (what is refused and why), before or from the server. */
export class DeploymentError extends Error {}

/** `<deployment>:<build id>`, as the TemporalWorkerDeploymentVersion search attribute holds it. */
export function versionKey(deploymentName: string, buildId: string): string {
  return `${deploymentName}:${buildId}`;
}

const Drainage = temporal.api.enums.v1.VersionDrainageStatus;

export type Routing = 'current' | 'ramping' | 'none';

export interface VersionView {
  buildId: string;
  routing: Routing;
  /** The ramp's share of new starts, when ramping. */
  rampPercent?: number;
  /**
   * The server's view of pinned workflows still open on it, once it stopped taking new ones:
   * `draining` (some open), `drained` (none), `active` (current or ramping), `unknown` (not checked
   * yet).
   */
  drainage: 'active' | 'draining' | 'drained' | 'unknown';
  /** Open executions whose last workflow task ran on this version (visibility, counted now). */
  openWorkflows: number;
  /**
   * Of those, the pinned ones: they finish on this version. The others (auto-upgrade, such as a
   * parked `cardEntity`) move to the current version at their next task, so they do not keep a
   * version from being retired.
   */
  pinnedOpen: number;
  createdAt?: string;
  /** When it last stopped being current or ramping. */
  deactivatedAt?: string;
}

export interface DeploymentView {
  deploymentName: string;
  current?: string;
  ramping?: { buildId: string; percent: number };
  versions: VersionView[];
}

type Timestamp = { seconds?: unknown; nanos?: number | null } | null | undefined;

function iso(t: Timestamp): string | undefined {
  if (!t?.seconds) return undefined;
  return new Date(Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
}

function grpcCode(error: unknown): number | undefined {
  return (error as { code?: number }).code;
}

async function describe(client: Client, deploymentName: string) {
  try {
    return await client.workflowService.describeWorkerDeployment({
      namespace: client.options.namespace,
      deploymentName,
    });
  } catch (error) {
    if (grpcCode(error) === 5)
      throw new DeploymentError(
        `deployment ${deploymentName} does not exist: no versioned worker of it has polled yet`,
      );
    throw error;
  }
}

/** Open executions on one version, by visibility; `pinned`: only those pinned to it. */
export async function countOpen(
  client: Client,
  deploymentName: string,
  buildId: string,
  opts: { pinned?: boolean } = {},
): Promise<number> {
  const pinned = opts.pinned ? ` AND TemporalWorkflowVersioningBehavior = 'Pinned'` : '';
  const { count } = await client.workflow.count(
    `TemporalWorkerDeploymentVersion = '${versionKey(deploymentName, buildId)}' AND ExecutionStatus = 'Running'${pinned}`,
  );
  return count;
}

/** Every version of the deployment, newest first, with its routing, drainage and open workflows. */
export async function describeDeployment(client: Client, deploymentName: string): Promise<DeploymentView> {
  const { workerDeploymentInfo: info } = await describe(client, deploymentName);
  const routingConfig = info?.routingConfig;
  const current = routingConfig?.currentDeploymentVersion?.buildId || undefined;
  const rampingId = routingConfig?.rampingDeploymentVersion?.buildId || undefined;
  const rampPercent = routingConfig?.rampingVersionPercentage ?? 0;
  const summaries = [...(info?.versionSummaries ?? [])].sort(
    (a, b) => Number(b.createTime?.seconds ?? 0) - Number(a.createTime?.seconds ?? 0),
  );
  const versions: VersionView[] = [];
  for (const s of summaries) {
    const buildId = s.deploymentVersion?.buildId ?? '';
    const routing: Routing = buildId === current ? 'current' : buildId === rampingId ? 'ramping' : 'none';
    const status = s.drainageInfo?.status ?? s.drainageStatus;
    const drainage =
      routing !== 'none'
        ? 'active'
        : status === Drainage.VERSION_DRAINAGE_STATUS_DRAINED
          ? 'drained'
          : status === Drainage.VERSION_DRAINAGE_STATUS_DRAINING
            ? 'draining'
            : 'unknown';
    const createdAt = iso(s.createTime);
    const deactivatedAt = iso(s.lastDeactivationTime);
    versions.push({
      buildId,
      routing,
      ...(routing === 'ramping' ? { rampPercent } : {}),
      drainage,
      openWorkflows: await countOpen(client, deploymentName, buildId),
      pinnedOpen: await countOpen(client, deploymentName, buildId, { pinned: true }),
      ...(createdAt ? { createdAt } : {}),
      ...(deactivatedAt ? { deactivatedAt } : {}),
    });
  }
  return {
    deploymentName,
    ...(current ? { current } : {}),
    ...(rampingId ? { ramping: { buildId: rampingId, percent: rampPercent } } : {}),
    versions,
  };
}

/**
 * A routing change the server refuses (FAILED_PRECONDITION) as a {@link DeploymentError}. The one
 * met in practice: a new build whose workers have not yet registered every task queue of the
 * current version (the task queue and its probe queue register separately, in seconds).
 */
async function refusedAsDeploymentError<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (grpcCode(error) !== 9) throw error;
    const reason = (error as Error).message.replace(/^\d+ FAILED_PRECONDITION: /, '');
    const hint = /missing active task queues/.test(reason)
      ? ' (its workers have not polled every task queue yet: wait until they do, then try again)'
      : '';
    throw new DeploymentError(`the server refuses to ${what}: ${reason}${hint}`);
  }
}

function identity(): string {
  return `cardflow-cli@${process.pid}`;
}

function known(view: DeploymentView, buildId: string): VersionView {
  const version = view.versions.find((v) => v.buildId === buildId);
  if (!version)
    throw new DeploymentError(
      `build ${buildId} is not a version of ${view.deploymentName} (known: ${view.versions.map((v) => v.buildId).join(', ') || 'none'}); start its workers first`,
    );
  return version;
}

/**
 * Makes `buildId` the version every new workflow (and every AUTO_UPGRADE one) runs on; clears its
 * ramp.
 */
export async function setCurrentVersion(client: Client, deploymentName: string, buildId: string): Promise<void> {
  known(await describeDeployment(client, deploymentName), buildId);
  const { conflictToken } = await describe(client, deploymentName);
  await refusedAsDeploymentError(`make ${buildId} current`, () =>
    client.workflowService.setWorkerDeploymentCurrentVersion({
      namespace: client.options.namespace,
      deploymentName,
      buildId,
      conflictToken,
      identity: identity(),
    }),
  );
}

/**
 * Sends `percent` of new starts to `buildId` (the rest to the current version); 0 with no build
 * stops the ramp.
 */
export async function rampVersion(
  client: Client,
  deploymentName: string,
  buildId: string | undefined,
  percent: number,
): Promise<void> {
  if (!(percent >= 0 && percent <= 100)) throw new DeploymentError('--percent: must be a number from 0 to 100');
  if (buildId) {
    const version = known(await describeDeployment(client, deploymentName), buildId);
    if (version.routing === 'current') throw new DeploymentError(`build ${buildId} is already current`);
  } else if (percent !== 0) throw new DeploymentError('--build-id: required to ramp (only --percent 0 stops a ramp)');
  const { conflictToken } = await describe(client, deploymentName);
  await refusedAsDeploymentError(buildId ? `ramp ${buildId}` : 'stop the ramp', () =>
    client.workflowService.setWorkerDeploymentRampingVersion({
      namespace: client.options.namespace,
      deploymentName,
      buildId: buildId ?? '',
      percentage: buildId ? percent : 0,
      conflictToken,
      identity: identity(),
    }),
  );
}

export interface RollbackResult {
  /**
   * `ramp-stopped`: a ramping version takes no more new starts; `current-restored`: `buildId` is
   * current again.
   */
  action: 'ramp-stopped' | 'current-restored';
  buildId: string;
}

/**
 * Rolls new starts back: a ramp in progress is stopped (everything new goes to the current version
 * again); otherwise `to`, by default the version that was current most recently, becomes current.
 * Pinned workflows stay where they are; AUTO_UPGRADE ones (cardEntity) move with the current
 * version.
 */
export async function rollback(client: Client, deploymentName: string, to?: string): Promise<RollbackResult> {
  const view = await describeDeployment(client, deploymentName);
  if (view.ramping && !to) {
    await rampVersion(client, deploymentName, undefined, 0);
    return { action: 'ramp-stopped', buildId: view.ramping.buildId };
  }
  const previous =
    to ??
    view.versions
      .filter((v) => v.routing === 'none' && v.deactivatedAt)
      .sort((a, b) => (b.deactivatedAt! > a.deactivatedAt! ? 1 : -1))[0]?.buildId;
  if (!previous) throw new DeploymentError(`${deploymentName} has no earlier current version to roll back to`);
  if (previous === view.current) throw new DeploymentError(`build ${previous} is already current`);
  await setCurrentVersion(client, deploymentName, previous);
  return { action: 'current-restored', buildId: previous };
}

/**
 * Deletes a drained version: refused while it is current or ramping, while a workflow pinned to it
 * is open (visibility, counted now; auto-upgrade ones move on at their next task), and by the
 * server while its drainage is not settled or its workers still poll (stop them first).
 */
export async function retireVersion(client: Client, deploymentName: string, buildId: string): Promise<void> {
  const version = known(await describeDeployment(client, deploymentName), buildId);
  if (version.routing !== 'none')
    throw new DeploymentError(`build ${buildId} is ${version.routing}: make another version current first`);
  if (version.pinnedOpen > 0)
    throw new DeploymentError(
      `build ${buildId} still has ${version.pinnedOpen} open pinned workflows: it has not drained`,
    );
  await refusedAsDeploymentError(`retire ${buildId}`, () =>
    client.workflowService.deleteWorkerDeploymentVersion({
      namespace: client.options.namespace,
      deploymentVersion: { deploymentName, buildId },
      identity: identity(),
    }),
  );
}

/** The table `cardflow deployment list` prints. */
export function describeView(view: DeploymentView): string {
  const rows = view.versions.map((v) =>
    [
      v.buildId,
      v.routing === 'ramping' ? `ramping ${v.rampPercent}%` : v.routing,
      v.drainage,
      String(v.openWorkflows),
      String(v.pinnedOpen),
      v.createdAt ?? '',
    ].join('  '),
  );
  return [
    `deployment ${view.deploymentName}: current ${view.current ?? 'unversioned'}${view.ramping ? `, ramping ${view.ramping.buildId} at ${view.ramping.percent}%` : ''}`,
    'build id          routing  drainage  open  pinned  created',
    ...rows,
  ].join('\n');
}

/**
 * Worker Deployments (docs/versioning.md): every cardflow worker process polls as one version of a
 * deployment, `<deployment name>:<build id>`. The build id is a hash of the workflow bundle the
 * worker runs, the thing that decides whether a history replays, so two workers run one version
 * exactly when they run the same workflow code, whatever the clock or the image tag says.
 *
 * Its variables (`CARDFLOW_DEPLOYMENT_NAME`, `CARDFLOW_WORKER_VERSIONING`,
 * `CARDFLOW_DEPLOYMENT_BOOTSTRAP`, `CARDFLOW_WORKFLOW_BUNDLE`), with their meanings, defaults and
 * rules: README's configuration table, generated from platform/config/schema.ts (`npm run
 * config-table`).
 */
import type { NativeConnection, WorkerOptions } from '@temporalio/worker';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { versionKey } from '../platform/temporal/deployments';
import type { BootstrapMode } from '../platform/config/versioning-variables';
import { configured, type ConfigurationSlice } from '../platform/config/schema';
import { DEFAULT_WORKFLOW_VERSIONING } from '../domain/workflow-versioning';

export type { BootstrapMode };

export interface VersioningSettings {
  /** false: the worker polls unversioned (CARDFLOW_WORKER_VERSIONING=off). */
  enabled: boolean;
  deploymentName: string;
  /**
   * `first`: make this worker's version current when the deployment never had one (a fresh
   * installation); `always`: at every start (a developer's own dev server); `off`: never.
   */
  bootstrap: BootstrapMode;
  /** A prebuilt workflow bundle to run instead of the build's own (CARDFLOW_WORKFLOW_BUNDLE). */
  bundlePath?: string;
}

/**
 * The versioning the variables ask for (platform/config/schema.ts checks each one's rule), defaults
 * filled in.
 */
export function versioningSettings(
  config: ConfigurationSlice<
    | 'CARDFLOW_DEPLOYMENT_NAME'
    | 'CARDFLOW_WORKER_VERSIONING'
    | 'CARDFLOW_DEPLOYMENT_BOOTSTRAP'
    | 'CARDFLOW_WORKFLOW_BUNDLE'
  >,
): VersioningSettings {
  const bundlePath = config.CARDFLOW_WORKFLOW_BUNDLE;
  return {
    enabled: configured(config, 'CARDFLOW_WORKER_VERSIONING'),
    deploymentName: configured(config, 'CARDFLOW_DEPLOYMENT_NAME'),
    bootstrap: configured(config, 'CARDFLOW_DEPLOYMENT_BOOTSTRAP'),
    ...(bundlePath === undefined ? {} : { bundlePath }),
  };
}

/**
 * `<deployment>:<build id>`, as Temporal writes it in the TemporalWorkerDeploymentVersion search
 * attribute.
 */
export function versionString(version: WorkerDeploymentVersion): string {
  return versionKey(version.deploymentName, version.buildId);
}

/** The options that make an SDK Worker poll as `version`. */
export function deploymentOptions(
  version: WorkerDeploymentVersion,
): NonNullable<WorkerOptions['workerDeploymentOptions']> {
  return {
    version,
    useWorkerVersioning: true,
    // Each workflow type declares its own (domain/workflow-versioning.ts); this covers one that
    // does not.
    defaultVersioningBehavior: DEFAULT_WORKFLOW_VERSIONING,
  };
}

export interface BootstrapResult {
  /**
   * `made-current`: this version became current; `already-set`: the deployment had (or has had) a
   * current version.
   */
  outcome: 'made-current' | 'already-set';
  current?: string;
}

/**
 * A fresh deployment has no current version, and a versioned worker receives no new workflow
 * until one is set: on a fresh installation the first version makes itself current. Never once a
 * current version was ever set (an operator's choice, or a deliberate return to unversioned
 * workers, `currentVersionChangedTime` set), so a restart cannot undo a rollback. The version
 * exists only once its pollers reached the server, so a not-found is retried for `timeoutMs`.
 */
export async function bootstrapCurrentVersion(
  connection: Pick<NativeConnection, 'workflowService'>,
  opts: {
    namespace: string;
    version: WorkerDeploymentVersion;
    identity: string;
    timeoutMs?: number;
    /**
     * `always`: make it current even over another current version (`npm start`'s own dev server).
     */
    mode?: Exclude<BootstrapMode, 'off'>;
  },
): Promise<BootstrapResult> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  const { namespace, version } = opts;
  for (let attempt = 0; ; attempt++) {
    try {
      const described = await connection.workflowService.describeWorkerDeployment({
        namespace,
        deploymentName: version.deploymentName,
      });
      const routing = described.workerDeploymentInfo?.routingConfig;
      const current = routing?.currentDeploymentVersion?.buildId;
      if (current === version.buildId) return { outcome: 'already-set', current };
      if (opts.mode !== 'always' && (current || routing?.currentVersionChangedTime))
        return { outcome: 'already-set', ...(current ? { current } : {}) };
      const registered = described.workerDeploymentInfo?.versionSummaries?.some(
        (s) => s.deploymentVersion?.buildId === version.buildId,
      );
      if (registered) {
        await connection.workflowService.setWorkerDeploymentCurrentVersion({
          namespace,
          deploymentName: version.deploymentName,
          buildId: version.buildId,
          conflictToken: described.conflictToken,
          identity: opts.identity,
        });
        return { outcome: 'made-current', current: version.buildId };
      }
    } catch (error) {
      // NOT_FOUND (5): the deployment is not there yet; ABORTED (10) / FAILED_PRECONDITION (9): a
      // concurrent change (another worker of this version) or the version still registering.
      const code = (error as { code?: number }).code;
      if (code !== 5 && code !== 9 && code !== 10) throw error;
    }
    if (Date.now() > deadline)
      throw new Error(`version ${versionString(version)} was not registered within ${opts.timeoutMs ?? 60_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, 2_000)));
  }
}

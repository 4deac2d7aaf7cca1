/**
 * The replay gate (docs/versioning.md): before a build is released, every history it might meet
 * replays against its bundle: the repository's saved histories and those exported from a live
 * deployment (`cardflow histories export`, encrypted, so the codec keys are needed). A build meets
 * the histories its own build id completed tasks of, those of AUTO_UPGRADE types (cardEntity), and
 * those no Worker Deployment version completed; a PINNED history of another build finishes there
 * and is listed, not replayed. A nondeterminism error names the history and its workflow.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type LoadedDataConverter, type DataConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { WORKFLOW_VERSIONING, type WorkflowVersioning } from '../domain/workflow-versioning';
import type { WorkflowType } from '../domain/workflows';
import { DROPPED_SPAN_SINKS, type BundleSource } from './create-worker';
import { buildIdOf } from '../platform/telemetry/build-id';

export interface SavedHistory {
  /** The file it came from. */
  file: string;
  workflowId: string;
  workflowType: string;
  history: temporal.api.history.v1.History;
}

export interface ReplayFinding {
  file: string;
  workflowId: string;
  workflowType: string;
  versioning: WorkflowVersioning;
  error: string;
}

/** A PINNED type's history written by another build: its runs finish there, never on this one. */
export interface PinnedElsewhere {
  file: string;
  workflowId: string;
  workflowType: string;
  buildId: string;
}

export interface ReplayGateResult {
  /** The build id of the bundle replayed on. */
  buildId: string;
  /** Histories replayed: every one this build may meet. */
  replayed: number;
  /** Histories this build may meet that do not replay on it: each blocks the release. */
  failures: ReplayFinding[];
  /** Not replayed, not counted: pinned to another build. */
  pinnedElsewhere: PinnedElsewhere[];
}

/** Every `*.json` history of the folders given (files `{ workflowId, history }`), in name order. */
export async function loadHistories(dirs: readonly string[]): Promise<SavedHistory[]> {
  const histories: SavedHistory[] = [];
  for (const dir of dirs) {
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
    for (const name of files) {
      const file = path.join(dir, name);
      const saved = JSON.parse(await readFile(file, 'utf8')) as { workflowId?: unknown; history?: unknown };
      if (typeof saved.workflowId !== 'string' || typeof saved.history !== 'object' || saved.history === null)
        throw new Error(`${file}: not a saved history ({ workflowId, history })`);
      const history = temporal.api.history.v1.History.fromObject(saved.history);
      const workflowType = history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? 'unknown';
      histories.push({ file, workflowId: saved.workflowId, workflowType, history });
    }
  }
  return histories;
}

function versioningOf(workflowType: string): WorkflowVersioning {
  return WORKFLOW_VERSIONING[workflowType as WorkflowType] ?? 'PINNED';
}

/**
 * The build that completed the run's last versioned workflow task; undefined when none was
 * versioned.
 */
export function buildIdOfHistory(history: temporal.api.history.v1.IHistory): string | undefined {
  let buildId: string | undefined;
  for (const e of history.events ?? []) {
    const done = e.workflowTaskCompletedEventAttributes;
    if (!done) continue;
    // `deployment:buildId` in the string form older servers wrote.
    const fromString = done.workerDeploymentVersion ? done.workerDeploymentVersion.split(/[:.]/).pop() : undefined;
    buildId = done.deploymentVersion?.buildId || fromString || buildId;
  }
  return buildId;
}

/**
 * Replays on `bundle` the histories its build may meet; the data converter opens encrypted payloads
 * of exported ones.
 */
export async function runReplayGate(
  bundle: BundleSource,
  histories: readonly SavedHistory[],
  opts: {
    dataConverter?: DataConverter | LoadedDataConverter;
    /**
     * Replay and count PINNED histories of other builds too: their runs are about to be moved onto
     * this build.
     */
    movingPinned?: boolean;
  } = {},
): Promise<ReplayGateResult> {
  const buildId = buildIdOf('code' in bundle ? bundle.code : await readFile(bundle.codePath, 'utf8'));
  const pinnedElsewhere: PinnedElsewhere[] = [];
  const met: SavedHistory[] = [];
  for (const h of histories) {
    const writtenBy = buildIdOfHistory(h.history);
    if (!opts.movingPinned && writtenBy && writtenBy !== buildId && versioningOf(h.workflowType) === 'PINNED')
      pinnedElsewhere.push({
        file: h.file,
        workflowId: h.workflowId,
        workflowType: h.workflowType,
        buildId: writtenBy,
      });
    else met.push(h);
  }
  // Results name the workflow id only; two runs of one id (continue-as-new) come back in order.
  const pending = new Map<string, SavedHistory[]>();
  for (const h of met) pending.set(h.workflowId, [...(pending.get(h.workflowId) ?? []), h]);
  const failures: ReplayFinding[] = [];
  const replays = Worker.runReplayHistories(
    {
      workflowBundle: bundle,
      sinks: DROPPED_SPAN_SINKS,
      ...(opts.dataConverter ? { dataConverter: opts.dataConverter } : {}),
    },
    // The real workflow id: derived ids and merchantOrderNos are read from it.
    met.map((h) => ({ workflowId: h.workflowId, history: h.history })),
  );
  let replayed = 0;
  for await (const result of replays) {
    replayed += 1;
    const h = pending.get(result.workflowId)!.shift()!;
    if (!result.error) continue;
    failures.push({
      file: h.file,
      workflowId: h.workflowId,
      workflowType: h.workflowType,
      versioning: versioningOf(h.workflowType),
      error: result.error.message,
    });
  }
  return { buildId, replayed, failures, pinnedElsewhere };
}

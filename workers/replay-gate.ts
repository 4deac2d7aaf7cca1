/**
 * The replay gate (docs/versioning.md): before a build is released, every history it might meet
 * is replayed against its workflow bundle. Two sets: the saved histories of the repository
 * (test/fixtures/histories, payloads in clear) and histories exported from a live deployment
 * (`cardflow histories export`, payloads encrypted, so the replay takes the codec keys). A
 * nondeterminism error names the history and its workflow.
 *
 * With Worker Deployments, pinned workflows never meet a new build, so a failure for a PINNED
 * type says "pinned runs of the older build must finish on it" (expected when the change was
 * meant for new runs only), while a failure for an AUTO_UPGRADE type (cardEntity) blocks the
 * release: those runs move to the new build as soon as it is current.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type LoadedDataConverter, type DataConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { WORKFLOW_VERSIONING, type WorkflowVersioning } from '../domain/workflow-versioning';
import type { WorkflowType } from '../domain/workflow-types';
import type { BundleSource } from './create-worker';

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

export interface ReplayGateResult {
  replayed: number;
  /** Histories that do not replay on the bundle. */
  failures: ReplayFinding[];
  /** The failures that block a release: AUTO_UPGRADE types, whose runs move to the new build. */
  blocking: ReplayFinding[];
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

/** Replays `histories` on `bundle`; the data converter opens encrypted payloads of exported ones. */
export async function runReplayGate(
  bundle: BundleSource,
  histories: readonly SavedHistory[],
  opts: { dataConverter?: DataConverter | LoadedDataConverter } = {},
): Promise<ReplayGateResult> {
  // Results name the workflow id only; two runs of one id (continue-as-new) come back in order.
  const pending = new Map<string, SavedHistory[]>();
  for (const h of histories) pending.set(h.workflowId, [...(pending.get(h.workflowId) ?? []), h]);
  const failures: ReplayFinding[] = [];
  const replays = Worker.runReplayHistories(
    {
      workflowBundle: bundle,
      ...(opts.dataConverter ? { dataConverter: opts.dataConverter } : {}),
    },
    // The real workflow id: derived ids and merchantOrderNos are read from it.
    histories.map((h) => ({ workflowId: h.workflowId, history: h.history })),
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
  return { replayed, failures, blocking: failures.filter((f) => f.versioning === 'AUTO_UPGRADE') };
}

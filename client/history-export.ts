/**
 * `exportHistories`: the raw histories of a deployment version's executions, open ones and those
 * closed in a recent window, written one file per run as `{ workflowId, history }` (the shape of
 * test/fixtures/histories), for the replay gate (workers/replay-gate.ts, docs/versioning.md).
 * Histories are fetched as the server stores them, so every payload stays encrypted by cardflow's
 * codec: the files hold no personal data in clear, and replaying them needs the codec keys.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { versionKey } from '../platform/temporal/deployments';

export interface HistoryExportOptions {
  deploymentName: string;
  /** One version's executions; default every version of the deployment. */
  buildId?: string;
  /** Closed executions are included when they closed after this time (ms since epoch). */
  closedSince: number;
  /** At most this many executions (newest first). */
  limit: number;
  /** Folder the files are written to (created). */
  outDir: string;
}

export interface HistoryExportResult {
  files: string[];
  open: number;
  closed: number;
}

/** The visibility query for a version's (or a deployment's) open and recently closed executions. */
export function exportQuery(opts: Pick<HistoryExportOptions, 'deploymentName' | 'buildId' | 'closedSince'>): string {
  const where = opts.buildId
    ? `TemporalWorkerDeploymentVersion = '${versionKey(opts.deploymentName, opts.buildId)}'`
    : `TemporalWorkerDeployment = '${opts.deploymentName}'`;
  return `${where} AND (ExecutionStatus = 'Running' OR CloseTime > '${new Date(opts.closedSince).toISOString()}')`;
}

/**
 * A file name from a workflow id and run id: ids hold `/` (children), which a file name cannot.
 * The whole run id: run ids are time-ordered (UUIDv7), so two runs of one id (a continue-as-new)
 * share their first digits and a prefix would write one file over the other.
 */
function fileName(workflowId: string, runId: string): string {
  return `${workflowId.replace(/[^A-Za-z0-9._-]/g, '_')}.${runId}.json`;
}

const RUNNING = temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;

/**
 * The executions are listed raw, as their histories are fetched: the client's own listing decodes
 * (and decrypts) every memo, which the export does not read, so it would need the codec keys and
 * fail on any payload it cannot decode.
 */
export async function exportHistories(client: Client, opts: HistoryExportOptions): Promise<HistoryExportResult> {
  await mkdir(opts.outDir, { recursive: true });
  const result: HistoryExportResult = { files: [], open: 0, closed: 0 };
  const query = exportQuery(opts);
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.listWorkflowExecutions({
      namespace: client.options.namespace,
      query,
      pageSize: Math.min(opts.limit, 1000),
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    for (const execution of page.executions) {
      if (result.files.length >= opts.limit) break;
      const workflowId = execution.execution?.workflowId ?? '';
      const runId = execution.execution?.runId ?? '';
      const history = await client.workflow
        .getHandle(workflowId, runId)
        .fetchHistory()
        .catch((error: unknown) => {
          throw new Error(
            `history of ${workflowId} (run ${runId}): ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        });
      const json = temporal.api.history.v1.History.toObject(temporal.api.history.v1.History.fromObject(history), {
        longs: String,
        enums: String,
        bytes: String,
      });
      const file = path.join(opts.outDir, fileName(workflowId, runId));
      await writeFile(file, `${JSON.stringify({ workflowId, history: json })}\n`);
      result.files.push(file);
      if (execution.status === RUNNING) result.open += 1;
      else result.closed += 1;
    }
    nextPageToken = page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
  } while (nextPageToken && result.files.length < opts.limit);
  return result;
}

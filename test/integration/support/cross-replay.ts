/**
 * Replay across tracing settings, over every history the integration tier made (run by the tier's
 * global teardown, while the dev server still holds them): each cardflow history whose run was
 * traced (a sampled trace context on its start, a signal or an Update) is replayed by a worker to
 * which no call is traced, and each untraced one by a worker to which every call is traced. Tracing
 * must not change a command, so both replay; a history that does not fails the tier.
 *
 * Left out, and counted: workflow types cardflow does not register (the tests' own), and runs whose
 * workflow tasks were completed by a Worker Deployment version of another build (the versioning
 * tests run deliberately incompatible builds beside the current one). Payloads the tests encrypted
 * are opened with the keys they registered (temporal-env.ts `testCodecKeys`).
 */
import { readFileSync, existsSync } from 'node:fs';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { parseKeyList } from '../../../platform/codec/keys';
import { WorkflowTypes } from '../../../domain/workflows';
import { bundleCardflowWorkflows, DROPPED_SPAN_SINKS } from '../../../workers/create-worker';
import { buildIdOf } from '../../../platform/telemetry/build-id';
import { sampledTraceIn } from '../../../workflows/interceptors/tracing';

/**
 * Workflow interceptor modules a replay puts before cardflow's own: no call traced, every call
 * traced, or every call traced as the earlier build's traced workers did.
 */
export const TRACING_SWITCHES = {
  untraced: require.resolve('./tracing-switch/untraced'),
  traced: require.resolve('./tracing-switch/traced'),
  earlierBuild: require.resolve('./tracing-switch/earlier-build'),
};

type History = temporal.api.history.v1.IHistory;
type Header = temporal.api.common.v1.IHeader | null | undefined;

export interface CrossReplayReport {
  executions: number;
  replayed: { traced: number; untraced: number };
  skipped: { foreignType: number; otherBuild: number };
  failures: string[];
}

function sampled(header: Header): boolean {
  return sampledTraceIn(header?.fields ?? undefined);
}

/** True when a call that reached the run carried a sampled trace context. */
export function tracedHistory(history: History): boolean {
  return (history.events ?? []).some(
    (e) =>
      sampled(e.workflowExecutionStartedEventAttributes?.header) ||
      sampled(e.workflowExecutionSignaledEventAttributes?.header) ||
      sampled(e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.header),
  );
}

/** The build ids of the Worker Deployment versions that completed the run's workflow tasks. */
function buildIdsOf(history: History): Set<string> {
  const ids = new Set<string>();
  for (const e of history.events ?? []) {
    const id = e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId;
    if (id) ids.add(id);
  }
  return ids;
}

export async function fetchHistory(connection: Connection, namespace: string, workflowId: string, runId: string) {
  const events: temporal.api.history.v1.IHistoryEvent[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await connection.workflowService.getWorkflowExecutionHistory({
      namespace,
      execution: { workflowId, runId },
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    events.push(...(page.history?.events ?? []));
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return temporal.api.history.v1.History.create({ events });
}

/**
 * Every execution on the server (every type, every run), a page of the visibility list at a time.
 */
export async function* everyExecution(connection: Connection, namespace: string) {
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await connection.workflowService.listWorkflowExecutions({
      namespace,
      pageSize: 1000,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    yield* page.executions;
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
}

/** The codec keys the tier's tests registered (one `id:key` per line), as one key list. */
export function registeredKeys(file: string | undefined): string {
  if (!file || !existsSync(file)) return '';
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).join(',');
}

export async function crossReplay(opts: {
  address: string;
  namespace: string;
  codecKeysFile?: string;
}): Promise<CrossReplayReport> {
  const connection = await Connection.connect({ address: opts.address });
  const report: CrossReplayReport = {
    executions: 0,
    replayed: { traced: 0, untraced: 0 },
    skipped: { foreignType: 0, otherBuild: 0 },
    failures: [],
  };
  try {
    const types = new Set<string>(Object.values(WorkflowTypes));
    // The build the tier's workers ran: the sources bundled as a versioned worker bundles them.
    const ownBuild = buildIdOf((await bundleCardflowWorkflows({ withFailureConverter: true })).code);
    const groups: Record<'traced' | 'untraced', { workflowId: string; history: History }[]> = {
      traced: [],
      untraced: [],
    };
    for await (const execution of everyExecution(connection, opts.namespace)) {
      report.executions += 1;
      const workflowId = execution.execution?.workflowId ?? '';
      if (!types.has(execution.type?.name ?? '')) {
        report.skipped.foreignType += 1;
        continue;
      }
      const history = await fetchHistory(connection, opts.namespace, workflowId, execution.execution?.runId ?? '');
      if ([...buildIdsOf(history)].some((id) => id !== ownBuild)) {
        report.skipped.otherBuild += 1;
        continue;
      }
      groups[tracedHistory(history) ? 'traced' : 'untraced'].push({ workflowId, history });
    }

    const keys = registeredKeys(opts.codecKeysFile);
    const dataConverter = keys ? createDataConverter(parseKeyList(keys)) : undefined;
    // Traced runs replay where no call is traced; untraced runs where every call is.
    for (const [made, replayedAs] of [
      ['traced', 'untraced'],
      ['untraced', 'traced'],
    ] as const) {
      const bundle: WorkflowBundle = await bundleCardflowWorkflows({
        outerInterceptorModules: [TRACING_SWITCHES[replayedAs]],
      });
      const replays = Worker.runReplayHistories(
        { workflowBundle: bundle, sinks: DROPPED_SPAN_SINKS, ...(dataConverter ? { dataConverter } : {}) },
        groups[made],
      );
      for await (const result of replays) {
        report.replayed[made] += 1;
        if (result.error)
          report.failures.push(`${made} run ${result.workflowId} replayed ${replayedAs}: ${result.error.message}`);
      }
    }
    return report;
  } finally {
    await connection.close();
  }
}

/**
 * How to read and print the status of each cardflow workflow type, so one watcher
 * (client/progress.ts `watchWorkflow`) and one `cardflow status <workflowId>` serve them all: the
 * type comes from `describe()`, then its status query, the key that marks a new stage, and the
 * one-line renderings of the status and the result.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import type { AnyWorkflowDefinition, ResultOf, StatusOf } from '../domain/workflow-definition';
import {
  cardEntityWorkflow,
  cardOperationWorkflows,
  customerOnboardingWorkflow,
  fundTransferWorkflow,
  physicalCardActivationWorkflow,
  reconciliationWorkflow,
  sharedAccountWorkflow,
  strandedMoneyWorkflow,
  walletFundingWorkflow,
} from '../domain/workflows';
import {
  describeActivationResult,
  describeActivationStatus,
  describeCardEntityResult,
  describeCardOperationStatus,
  describeCardOutcome,
  describeCardSnapshot,
  describeFundingResult,
  describeFundingStatus,
  describeProgress,
  describeResult,
  describeSharedAccountResult,
  describeTransferResult,
  describeTransferStatus,
} from './describe';
import type { WatchTarget } from './progress';
import { describeReport } from './reconciliation';
import { describeStranded } from './stranded-money';

/** One workflow type's status reading and rendering. */
export interface StatusView<S = unknown, R = unknown> {
  /** The status query; undefined for a workflow without one (then only describe() tells). */
  query?: QueryDefinition<S>;
  key: (status: S) => string;
  line: (status: S) => string;
  result: (result: R) => string;
}

/** The view of `definition`: its status query (from the definition) and how its status and result read. */
function view<D extends AnyWorkflowDefinition>(
  definition: D,
  rendering: Omit<StatusView<StatusOf<D>, ResultOf<D>>, 'query'>,
): [string, StatusView] {
  const query = definition.statusQuery as QueryDefinition<StatusOf<D>> | undefined;
  return [definition.type, { ...rendering, ...(query ? { query } : {}) } as unknown as StatusView];
}

const cardOperation = {
  key: (s: StatusOf<typeof cardOperationWorkflows.freeze>) => `${s.stage}/${s.operationStatus ?? ''}`,
  line: describeCardOperationStatus,
  result: describeCardOutcome,
};

export const STATUS_VIEWS: Readonly<Record<string, StatusView>> = Object.fromEntries([
  view(customerOnboardingWorkflow, { key: (p) => p.stage, line: describeProgress, result: describeResult }),
  view(physicalCardActivationWorkflow, {
    key: (s) => `${s.stage}/${s.workOrderStatus ?? ''}`,
    line: describeActivationStatus,
    result: describeActivationResult,
  }),
  view(fundTransferWorkflow, { key: (s) => s.stage, line: describeTransferStatus, result: describeTransferResult }),
  view(sharedAccountWorkflow, {
    key: (s) => s.stage,
    line: (s) => `${s.stage}${s.accountId ? ` (account ${s.accountId})` : ''}`,
    result: describeSharedAccountResult,
  }),
  view(walletFundingWorkflow, {
    key: (s) => `${s.stage}/${s.address ?? ''}/${s.depositStatus ?? ''}`,
    line: describeFundingStatus,
    result: describeFundingResult,
  }),
  ...Object.values(cardOperationWorkflows).map((definition) => view(definition, cardOperation)),
  view(cardEntityWorkflow, {
    key: (s) => JSON.stringify([s.status, s.cancelled, s.pending, s.balance, s.authorizationCount]),
    line: describeCardSnapshot,
    result: describeCardEntityResult,
  }),
  view(reconciliationWorkflow, {
    key: (r) => (r ? `${r.runs}/${JSON.stringify(r.read)}/${r.findingCount}` : ''),
    line: (r) =>
      r
        ? `${r.status === 'completed' ? 'reconciled' : 'reconciling'}: ${Object.entries(r.read)
            .map(([source, n]) => `${source} ${n}`)
            .join(', ')}; ${r.findingCount} finding(s)`
        : 'starting',
    result: describeReport,
  }),
  view(strandedMoneyWorkflow, { key: (s) => s.stage, line: describeStranded, result: describeStranded }),
]);

/** A view for types without one (children such as cardholderOnboarding): describe() only. */
const DESCRIBE_ONLY: StatusView = { key: () => '', line: () => '', result: (r) => JSON.stringify(r) };

export function statusViewFor(workflowType: string): StatusView {
  return (Object.hasOwn(STATUS_VIEWS, workflowType) ? STATUS_VIEWS[workflowType] : undefined) ?? DESCRIBE_ONLY;
}

export interface WorkflowStatusLine {
  workflowType: string;
  /** COMPLETED, RUNNING, FAILED, ... */
  status: string;
  view: StatusView;
  /** The status query's answer rendered, or why it was not answered. */
  line: string;
  /** The status query's answer itself, when it was answered. */
  value?: unknown;
}

/** What a workflow is doing now, from describe() and (when it has one) its status query. */
export async function readWorkflowStatus(client: Client, workflowId: string): Promise<WorkflowStatusLine> {
  const handle = client.workflow.getHandle(workflowId);
  const description = await handle.describe();
  const v = statusViewFor(description.type);
  let line: string = description.status.name;
  let value: unknown;
  if (v.query) {
    // A query needs a worker to answer it; describe needs none and still tells where things stand.
    line = await handle.query(v.query).then(
      (s) => {
        value = s;
        return v.line(s);
      },
      (error: unknown) =>
        `${description.status.name} (status query unanswered: ${error instanceof Error ? error.message : String(error)}; is a worker running?)`,
    );
  }
  return {
    workflowType: description.type,
    status: description.status.name,
    view: v,
    line,
    ...(value === undefined ? {} : { value }),
  };
}

/** The watch target of `handle` under `v` (client/progress.ts `watchWorkflow`). */
export function watchTargetFor(handle: WorkflowHandle, v: StatusView): WatchTarget<unknown> {
  const query = v.query;
  if (!query) return { handle, read: async () => 'running', key: () => '' };
  return { handle, read: () => handle.query(query), key: v.key };
}

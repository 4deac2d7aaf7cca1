/**
 * How to read and print the status of each cardflow workflow type, so one watcher
 * (client/progress.ts `watchWorkflow`) and one `cardflow status <workflowId>` serve them all: the
 * type comes from `describe()`, then its status query, the key that marks a new stage, and the
 * one-line renderings of the status and the result.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import type { AnyWorkflowDefinition, ResultOf, StatusOf } from '../domain/workflow-definition';
import { WORKFLOWS, type WorkflowType } from '../domain/workflows';
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

type DefinitionOf<T extends WorkflowType> = (typeof WORKFLOWS)[T];

/**
 * How a workflow type's status and result read: its view without the query, which its definition
 * gives.
 */
type Rendering<T extends WorkflowType> = Omit<
  StatusView<StatusOf<DefinitionOf<T>>, ResultOf<DefinitionOf<T>>>,
  'query'
>;

const cardOperation: Rendering<'cardFreeze' | 'cardUnfreeze' | 'cardPinUpdate'> = {
  key: (s) => `${s.stage}/${s.operationStatus ?? ''}`,
  line: describeCardOperationStatus,
  result: describeCardOutcome,
};

/** The renderings written for a type, checked against its definition's status and result. */
const RENDERINGS: { readonly [T in WorkflowType]?: Rendering<T> } = {
  customerOnboarding: { key: (p) => p.stage, line: describeProgress, result: describeResult },
  physicalCardActivation: {
    key: (s) => `${s.stage}/${s.workOrderStatus ?? ''}`,
    line: describeActivationStatus,
    result: describeActivationResult,
  },
  fundTransfer: { key: (s) => s.stage, line: describeTransferStatus, result: describeTransferResult },
  sharedAccount: {
    key: (s) => s.stage,
    line: (s) => `${s.stage}${s.accountId ? ` (account ${s.accountId})` : ''}`,
    result: describeSharedAccountResult,
  },
  walletFunding: {
    key: (s) => `${s.stage}/${s.address ?? ''}/${s.depositStatus ?? ''}`,
    line: describeFundingStatus,
    result: describeFundingResult,
  },
  cardFreeze: cardOperation,
  cardUnfreeze: cardOperation,
  cardPinUpdate: cardOperation,
  cardEntity: {
    key: (s) => JSON.stringify([s.status, s.cancelled, s.pending, s.balance, s.authorizationCount]),
    line: describeCardSnapshot,
    result: describeCardEntityResult,
  },
  reconciliation: {
    key: (r) => (r ? `${r.runs}/${JSON.stringify(r.read)}/${r.findingCount}` : ''),
    line: (r) =>
      r
        ? `${r.status === 'completed' ? 'reconciled' : 'reconciling'}: ${Object.entries(r.read)
            .map(([source, n]) => `${source} ${n}`)
            .join(', ')}; ${r.findingCount} finding(s)`
        : 'starting',
    result: describeReport,
  },
  strandedMoney: { key: (s) => s.stage, line: describeStranded, result: describeStranded },
};

/**
 * For a workflow with no rendering written here: its definition's `describe`, else its status
 * (when it has a query) and result as JSON; a new stage whenever the status changes.
 */
function described(definition: AnyWorkflowDefinition): Omit<StatusView, 'query'> {
  const json = (value: unknown) => JSON.stringify(value);
  return {
    key: json,
    line: definition.describe?.status ?? json,
    result: definition.describe?.result ?? json,
  };
}

/**
 * The view of each workflow type that has one, typed by its definition: its status query from the
 * definition and its rendering; a child only a parent starts has none (describe() tells).
 */
export const STATUS_VIEWS: {
  readonly [T in WorkflowType]?: StatusView<StatusOf<DefinitionOf<T>>, ResultOf<DefinitionOf<T>>>;
} = Object.fromEntries(
  (Object.values(WORKFLOWS) as readonly AnyWorkflowDefinition[]).flatMap((definition) => {
    const rendering = (RENDERINGS as Record<string, Omit<StatusView, 'query'> | undefined>)[definition.type];
    if (!rendering && !definition.id && !definition.describe) return [];
    const query = definition.statusQuery as QueryDefinition<unknown> | undefined;
    return [[definition.type, { ...(rendering ?? described(definition)), ...(query ? { query } : {}) }]];
  }),
);

/** A view for types without one (children such as cardholderOnboarding): describe() only. */
const DESCRIBE_ONLY: StatusView = { key: () => '', line: () => '', result: (r) => JSON.stringify(r) };

export function statusViewFor(workflowType: string): StatusView {
  const views = STATUS_VIEWS as Readonly<Record<string, StatusView | undefined>>;
  return (Object.hasOwn(views, workflowType) ? views[workflowType] : undefined) ?? DESCRIBE_ONLY;
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

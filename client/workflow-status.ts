/**
 * How to read and print the status of each cardflow workflow type, so one watcher
 * (client/progress.ts `watchWorkflow`) and one `cardflow status <workflowId>` serve them all: the
 * type comes from `describe()`, then its status query, the key that marks a new stage, and the
 * one-line renderings of the status and the result.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import { progressQuery, WorkflowTypes, type OnboardingProgress, type OnboardingResult } from '../domain';
import { cardSnapshotQuery, type CardEntityResult, type CardSnapshot } from '../domain/card-entity';
import {
  cardOperationStatusQuery,
  type CardOperationOutcome,
  type CardOperationStatus,
} from '../domain/card-operations';
import { transferStatusQuery, type FundTransferResult, type FundTransferStatus } from '../domain/fund-transfer';
import {
  activationStatusQuery,
  type PhysicalCardActivationResult,
  type PhysicalCardActivationStatus,
} from '../domain/physical-card-activation';
import { reconcileReportQuery, type ReconcileReport } from '../domain/reconciliation';
import type { SharedAccountResult } from '../domain/shared-account';
import { fundingStatusQuery, type WalletFundingResult, type WalletFundingStatus } from '../domain/wallet-funding';
import {
  describeProgress,
  describeResult,
  describeActivationResult,
  describeActivationStatus,
  describeCardEntityResult,
  describeCardOperationStatus,
  describeCardOutcome,
  describeCardSnapshot,
  describeFundingResult,
  describeFundingStatus,
  describeSharedAccountResult,
  describeTransferResult,
  describeTransferStatus,
} from './describe';
import type { WatchTarget } from './progress';
import { describeReport } from './reconciliation';

/** One workflow type's status reading and rendering. */
export interface StatusView<S = unknown, R = unknown> {
  /** The status query; undefined for a workflow without one (then only describe() tells). */
  query?: QueryDefinition<S>;
  key: (status: S) => string;
  line: (status: S) => string;
  result: (result: R) => string;
}

function view<S, R>(v: StatusView<S, R>): StatusView {
  return v as unknown as StatusView;
}

const cardOperation = view<CardOperationStatus, CardOperationOutcome>({
  query: cardOperationStatusQuery,
  key: (s) => `${s.stage}/${s.operationStatus ?? ''}`,
  line: describeCardOperationStatus,
  result: describeCardOutcome,
});

export const STATUS_VIEWS: Readonly<Record<string, StatusView>> = {
  [WorkflowTypes.customerOnboarding]: view<OnboardingProgress, OnboardingResult>({
    query: progressQuery,
    key: (p) => p.stage,
    line: describeProgress,
    result: describeResult,
  }),
  [WorkflowTypes.physicalCardActivation]: view<PhysicalCardActivationStatus, PhysicalCardActivationResult>({
    query: activationStatusQuery,
    key: (s) => `${s.stage}/${s.workOrderStatus ?? ''}`,
    line: describeActivationStatus,
    result: describeActivationResult,
  }),
  [WorkflowTypes.fundTransfer]: view<FundTransferStatus, FundTransferResult>({
    query: transferStatusQuery,
    key: (s) => s.stage,
    line: describeTransferStatus,
    result: describeTransferResult,
  }),
  [WorkflowTypes.sharedAccount]: view<never, SharedAccountResult>({
    key: () => '',
    line: () => '',
    result: describeSharedAccountResult,
  }),
  [WorkflowTypes.walletFunding]: view<WalletFundingStatus, WalletFundingResult>({
    query: fundingStatusQuery,
    key: (s) => `${s.stage}/${s.address ?? ''}/${s.depositStatus ?? ''}`,
    line: describeFundingStatus,
    result: describeFundingResult,
  }),
  [WorkflowTypes.cardFreeze]: cardOperation,
  [WorkflowTypes.cardUnfreeze]: cardOperation,
  [WorkflowTypes.cardPinUpdate]: cardOperation,
  [WorkflowTypes.cardEntity]: view<CardSnapshot, CardEntityResult>({
    query: cardSnapshotQuery,
    key: (s) => JSON.stringify([s.status, s.cancelled, s.pending, s.balance, s.authorizationCount]),
    line: describeCardSnapshot,
    result: describeCardEntityResult,
  }),
  [WorkflowTypes.reconciliation]: view<ReconcileReport | undefined, ReconcileReport>({
    query: reconcileReportQuery,
    key: (r) => (r ? `${r.runs}/${JSON.stringify(r.read)}/${r.findingCount}` : ''),
    line: (r) =>
      r
        ? `${r.status === 'completed' ? 'reconciled' : 'reconciling'}: ${Object.entries(r.read)
            .map(([source, n]) => `${source} ${n}`)
            .join(', ')}; ${r.findingCount} finding(s)`
        : 'starting',
    result: describeReport,
  }),
};

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

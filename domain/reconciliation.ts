/**
 * Reconciliation: cardflow compares what its workflows did with what the provider recorded,
 * repairs what is safe (a missed event re-delivered to its workflow as the very signal the webhook
 * would have sent, never a provider mutation) and reports the rest as findings, each with a kind,
 * the ids involved and a suggested action.
 *
 * Shared by the `reconciliation` workflow, its activities, the client and the CLI: the input and
 * the configuration, the finding model, the report and its query, and the workflow ids.
 */
import { defineQuery } from '@temporalio/workflow';
import type { NotificationPlan } from './notifications';
import { parseDuration } from '../platform/config/values/duration';
import { RECONCILE_WINDOW_DEFAULTS } from '../platform/config/values/reconcile-windows';

/** Every kind of finding. `missed_event` is the one reconciliation repairs itself. */
export const FINDING_KINDS = {
  /** A workflow waits on an order the provider has finished: its event was re-delivered. */
  missedEvent: 'missed_event',
  /** A provider order carries a cardflow merchantOrderNo that no workflow ever recorded. */
  orphanOrder: 'orphan_order',
  /** The provider's outcome of a cardflow order differs from how its workflow ended. */
  outcomeMismatch: 'outcome_mismatch',
  /** An operation still wait_process / processing past its SLA. */
  stuckOrder: 'stuck_order',
  /** A cardholder still in review past its SLA. */
  stuckReview: 'stuck_review',
  /**
   * A provider order with a merchantOrderNo that is not cardflow's (a direct API call, the
   * dashboard).
   */
  externalOrder: 'external_order',
  /**
   * Money that moved with no cardflow order behind it (a fixed adjustment, a dashboard transfer).
   */
  externalLedgerEntry: 'external_ledger_entry',
  /** A ledger entry naming an order the provider's records do not show. */
  unexplainedLedgerEntry: 'unexplained_ledger_entry',
  /**
   * An account whose entries do not add up to its balance (or break their own before/after chain).
   */
  balanceMismatch: 'balance_mismatch',
  /** An account's available balance under its configured floor. */
  belowFloor: 'below_floor',
  /** An account's available balance under what running workflows are about to spend from it. */
  belowCommitments: 'below_commitments',
  /**
   * Money a failed or cancelled process left at the provider where the API has no way back (a
   * card's balance, a WALLET credit, a return that failed): reported by every run until an
   * operator acknowledges its record.
   */
  strandedMoney: 'stranded_money',
  /**
   * A customer's on-chain deposit credited to the merchant WALLET after every cardflow funding
   * that listed its address had ended: no workflow took it and none recorded it.
   */
  lateDeposit: 'late_deposit',
} as const;
export type FindingKind = (typeof FINDING_KINDS)[keyof typeof FINDING_KINDS];

/**
 * The counter every completed run adds its findings to, by kind (repaired ones included), on the
 * worker's metrics: `cardflow_reconciliation_findings_total{kind}` once exported. Recorded by the
 * workflow (workflows/reporting/finding-metrics.ts) and set to 0 for every kind when a worker
 * starts (workers/telemetry.ts), so a worker's first run counts as an increase.
 */
export const FINDINGS_METRIC = {
  name: 'cardflow_reconciliation_findings',
  description: 'Findings of completed reconciliation runs, by kind (repaired ones included)',
} as const;

/** The ids a finding names; business references only, never personal data or a PAN. */
export interface FindingIds {
  customerRef?: string;
  merchantOrderNo?: string;
  orderNo?: string;
  workflowId?: string;
  cardNo?: string;
  holderId?: string;
  accountId?: string;
  txId?: string;
  tradeNo?: string;
}

export interface Finding {
  kind: FindingKind;
  ids: FindingIds;
  /** What was seen, in one line (statuses, amounts, times). */
  detail: string;
  /** What an operator should do; for a repaired finding, what was done. */
  action: string;
  /** True when reconciliation repaired it (a missed event re-delivered). */
  repaired?: boolean;
  /** An amount the finding concerns, exact (decimal string). */
  amount?: string;
  currency?: string;
}

/** Whether a finding asks for an operator: everything but what reconciliation repaired itself. */
export function needsOperator(finding: Finding): boolean {
  return finding.repaired !== true;
}

/** Thresholds and windows; durations in milliseconds, amounts as decimal strings. */
export interface ReconcileConfig {
  /**
   * Added before `since` so an entry written just before the last run's end is seen twice rather
   * than never.
   */
  overlapMs: number;
  /** Without a previous run (or `since`): how far back the first run looks. */
  firstLookbackMs: number;
  /** An operation in wait_process / processing longer than this is stuck. */
  operationSlaMs: number;
  /** A cardholder in wait_audit / under_review longer than this is stuck. */
  reviewSlaMs: number;
  /**
   * How long after an order's time a running owner may still be about to receive its webhook (or
   * poll it): older than this, the event counts as missed. Longer than the webhook head start.
   */
  eventGraceMs: number;
  /** Floor of the merchant wallet (WALLET) available balance; none when absent. */
  walletFloor?: string;
  /** Floor of each shared (MARGIN) account's available balance; none when absent. */
  sharedAccountFloor?: string;
}

const windowMs = (name: keyof typeof RECONCILE_WINDOW_DEFAULTS): number =>
  parseDuration(RECONCILE_WINDOW_DEFAULTS[name])!;

/** The windows a reconciliation uses when its input sets none: the variables' defaults. */
export const DEFAULT_RECONCILE_CONFIG: ReconcileConfig = {
  overlapMs: windowMs('CARDFLOW_RECONCILE_OVERLAP'),
  firstLookbackMs: windowMs('CARDFLOW_RECONCILE_FIRST_LOOKBACK'),
  operationSlaMs: windowMs('CARDFLOW_RECONCILE_OPERATION_SLA'),
  reviewSlaMs: windowMs('CARDFLOW_RECONCILE_REVIEW_SLA'),
  eventGraceMs: windowMs('CARDFLOW_RECONCILE_EVENT_GRACE'),
};

/** The sources reconciliation reads, in the order it reads them. */
export const RECONCILE_SOURCES = [
  'cardOperations',
  'cardholders',
  'workOrders',
  'walletTransactions',
  'ledger',
] as const;
export type ReconcileSource = (typeof RECONCILE_SOURCES)[number];

/** Where the walk of an account's ledger entries (newest first) stands. */
export interface LedgerChain {
  /** The balance the next (older) entry must end at: its `afterBalance`. */
  expectedAfter: string;
  /** Sum of the signed amounts walked so far (IN positive, OUT negative). */
  delta: string;
}

/**
 * Where paging stands: a source, a time slice of the window, a page, and for the ledger the
 * accounts.
 */
export interface ReconcileCursor {
  source: ReconcileSource;
  pageNum: number;
  /** The slice of the window being read (ledger: at most 30 days, wallet: at most 90). */
  sliceStart: number;
  sliceEnd: number;
  /**
   * Ledger: the accounts still to read (the first is being read) and the current one's walk so far.
   */
  ledger?: { accountIds: string[]; current?: { summary: AccountReconciliation; chain: LedgerChain } };
}

/** Per account: what its entries in the window add up to, and how they are explained. */
export interface AccountReconciliation {
  accountId: string;
  accountType: string;
  currency: string;
  entries: number;
  /** Entries explained by a cardflow order. */
  cardflow: number;
  /**
   * Entries explained by a provider record: authorization fees, settlements, cancellations,
   * overdraft statements, on-chain deposits.
   */
  provider: number;
  /** Entries with no cardflow order behind them (each also a finding). */
  external: number;
  /** Balance before the window's first entry, recomputed from the entries. */
  openingBalance?: string;
  /** Opening balance plus every entry of the window: must equal the provider's total balance. */
  recomputedBalance?: string;
  providerBalance: string;
  availableBalance: string;
}

/** What one run found and did. */
export interface ReconcileReport {
  window: { start: number; end: number };
  /**
   * True when the run was given its own start (`--since`): it then may leave a gap after the run
   * before it, so the next run reads on from the last run that continued the chain instead.
   */
  sinceGiven?: boolean;
  status: 'running' | 'completed';
  /** Records read per source. */
  read: Partial<Record<ReconcileSource, number>>;
  /** Findings per kind, also those beyond {@link MAX_REPORTED_FINDINGS}. */
  counts: Partial<Record<FindingKind, number>>;
  findingCount: number;
  /** Findings that ask for an operator (all but the repaired ones). */
  driftCount: number;
  repairedCount: number;
  /** The first findings, up to {@link MAX_REPORTED_FINDINGS}. */
  findings: Finding[];
  /** Findings not kept in `findings` (counted in `counts`). */
  omittedFindings: number;
  accounts: AccountReconciliation[];
  /** Provider calls made, all within the spec's page limits. */
  providerCalls: number;
  /** Runs this report spans (continue-as-new keeps each history small). */
  runs: number;
}

/**
 * Findings kept in the report itself: the report lives in the workflow's state and history, so it
 * must stay bounded however many orders drift; the counts still cover every finding.
 */
export const MAX_REPORTED_FINDINGS = 200;

export function emptyReport(window: { start: number; end: number }): ReconcileReport {
  return {
    window,
    status: 'running',
    read: {},
    counts: {},
    findingCount: 0,
    driftCount: 0,
    repairedCount: 0,
    findings: [],
    omittedFindings: 0,
    accounts: [],
    providerCalls: 0,
    runs: 1,
  };
}

/**
 * Adds findings to a report (counts always, the findings themselves up to the cap). Pure: returns a
 * new report.
 */
export function withFindings(report: ReconcileReport, findings: readonly Finding[]): ReconcileReport {
  const counts = { ...report.counts };
  const kept = [...report.findings];
  let omitted = report.omittedFindings;
  let drift = report.driftCount;
  let repaired = report.repairedCount;
  for (const finding of findings) {
    counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
    if (needsOperator(finding)) drift += 1;
    else repaired += 1;
    if (kept.length < MAX_REPORTED_FINDINGS) kept.push(finding);
    else omitted += 1;
  }
  return {
    ...report,
    counts,
    findings: kept,
    omittedFindings: omitted,
    findingCount: report.findingCount + findings.length,
    driftCount: drift,
    repairedCount: repaired,
  };
}

/** The input of one reconciliation run (and of each continue-as-new of it). */
export interface ReconcileInput {
  /** Window start (ms); default: the previous completed run's end minus the overlap. */
  since?: number;
  /** Window end (ms); default: when the run starts. */
  until?: number;
  config?: Partial<ReconcileConfig>;
  /** Set by continue-as-new: where paging stands and what was found so far. */
  carried?: {
    cursor: ReconcileCursor;
    report: ReconcileReport;
    config: ReconcileConfig;
    /** The worker's notification plan, learnt by the first run (domain/notifications.ts). */
    notifications?: NotificationPlan;
  };
}

/** The report so far (running) or the final one; a completed run answers it too. */
export const reconcileReportQuery = defineQuery<ReconcileReport | undefined>('reconcileReport');

export const RECONCILE_ID_PREFIX = 'reconcile-';
/** The id of the Temporal Schedule that runs reconciliation. */
export const RECONCILE_SCHEDULE_ID = 'cardflow-reconciliation';

/**
 * `reconcile-<ISO time>`: an on-demand run (the CLI); the schedule names its own runs after its id.
 */
export function reconcileWorkflowId(at: Date): string {
  return `${RECONCILE_ID_PREFIX}${at.toISOString().replace(/[:.]/g, '-')}`;
}

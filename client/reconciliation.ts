/**
 * Reconciliation for backend services and the CLI: its settings from the configuration, an
 * on-demand run (`runReconciliation`), the Temporal Schedule that runs it
 * (`ensureReconcileSchedule`, idempotent: created once, brought to the configured interval and
 * input when it exists), and the report as a readable table.
 *
 * Its variables (`CARDFLOW_RECONCILE_*`, `CARDFLOW_BALANCE_FLOOR`,
 * `CARDFLOW_SHARED_ACCOUNT_FLOOR`), with their meanings, defaults and rules: README's configuration
 * table, generated from platform/config/schema.ts (`npm run config-table`).
 */
import { type Client, type ScheduleOptionsAction, type WorkflowHandle } from '@temporalio/client';
import { CARDFLOW_TASK_QUEUE } from '../domain/task-queue';
import {
  FINDING_KINDS,
  RECONCILE_SCHEDULE_ID,
  reconcileWorkflowId,
  type Finding,
  type ReconcileConfig,
  type ReconcileInput,
  type ReconcileReport,
} from '../domain/reconciliation';
import { WorkflowTypes } from '../domain/workflows';
import { configured, type ConfigurationSlice } from '../platform/config/schema';
import type { UnavailableRetry } from '../platform/temporal/unavailable-retry';
import { ensureIntervalSchedule } from './schedules';
import { startThroughOutage } from './start';

/** The variables reconciliation reads (platform/config/schema.ts checks each one's rule). */
export type ReconcileVariables = ConfigurationSlice<
  | 'CARDFLOW_RECONCILE_INTERVAL'
  | 'CARDFLOW_RECONCILE_SCHEDULE'
  | 'CARDFLOW_RECONCILE_OVERLAP'
  | 'CARDFLOW_RECONCILE_FIRST_LOOKBACK'
  | 'CARDFLOW_RECONCILE_OPERATION_SLA'
  | 'CARDFLOW_RECONCILE_REVIEW_SLA'
  | 'CARDFLOW_RECONCILE_EVENT_GRACE'
  | 'CARDFLOW_BALANCE_FLOOR'
  | 'CARDFLOW_SHARED_ACCOUNT_FLOOR'
>;

/** The configured thresholds (those not set keep their defaults) and the schedule's interval. */
export function reconcileSettings(config: ReconcileVariables): {
  config: Partial<ReconcileConfig>;
  intervalMs: number;
  schedule: boolean;
} {
  const thresholds: Partial<ReconcileConfig> = {};
  const set = <K extends keyof ReconcileConfig>(key: K, value: ReconcileConfig[K] | undefined) => {
    if (value !== undefined) thresholds[key] = value;
  };
  set('overlapMs', config.CARDFLOW_RECONCILE_OVERLAP);
  set('firstLookbackMs', config.CARDFLOW_RECONCILE_FIRST_LOOKBACK);
  set('operationSlaMs', config.CARDFLOW_RECONCILE_OPERATION_SLA);
  set('reviewSlaMs', config.CARDFLOW_RECONCILE_REVIEW_SLA);
  set('eventGraceMs', config.CARDFLOW_RECONCILE_EVENT_GRACE);
  set('walletFloor', config.CARDFLOW_BALANCE_FLOOR);
  set('sharedAccountFloor', config.CARDFLOW_SHARED_ACCOUNT_FLOOR);
  return {
    config: thresholds,
    intervalMs: configured(config, 'CARDFLOW_RECONCILE_INTERVAL'),
    schedule: config.CARDFLOW_RECONCILE_SCHEDULE !== '0',
  };
}

export interface ReconcileOptions {
  taskQueue?: string;
  /** Workflow id; default `reconcile-<now>`. */
  workflowId?: string;
  /**
   * How long the start waits for an unavailable Temporal (platform/temporal/unavailable-retry.ts);
   * default 60 s, with a warning on stderr.
   */
  whileUnavailable?: UnavailableRetry;
}

/**
 * Starts one reconciliation run now, through a Temporal restart like every start
 * (client/start.ts): the id is chosen once, so a start retried after its answer was lost finds
 * the run it made instead of starting a second. An id that already has a run answers with that
 * run's handle.
 */
export async function startReconciliation(
  client: Client,
  input: ReconcileInput,
  opts: ReconcileOptions = {},
): Promise<WorkflowHandle> {
  const { handle } = await startThroughOutage(
    client,
    WorkflowTypes.reconciliation,
    {
      workflowId: opts.workflowId ?? reconcileWorkflowId(new Date()),
      taskQueue: opts.taskQueue ?? CARDFLOW_TASK_QUEUE,
      args: [input],
    },
    opts.whileUnavailable,
  );
  return handle;
}

/** Runs one reconciliation to its end and returns the report. */
export async function runReconciliation(
  client: Client,
  input: ReconcileInput,
  opts: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const handle = await startReconciliation(client, input, opts);
  return (await handle.result()) as ReconcileReport;
}

export interface ScheduleSettings {
  intervalMs: number;
  config: Partial<ReconcileConfig>;
  taskQueue?: string;
  /** Default {@link RECONCILE_SCHEDULE_ID}. */
  scheduleId?: string;
  whileUnavailable?: UnavailableRetry | undefined;
}

/**
 * Creates the schedule that runs reconciliation every `intervalMs`, or brings an existing one to
 * this interval and input: the worker at start and `cardflow reconcile --schedule` may both call
 * it, any number of times. A run still going when the next is due makes that one skip (overlap
 * SKIP). It retries through a Temporal restart as the starts do: creating, or else updating, is
 * safe to try again, and a create whose answer was lost is found and updated (`created: false`).
 */
export async function ensureReconcileSchedule(
  client: Client,
  settings: ScheduleSettings,
): Promise<{ scheduleId: string; created: boolean }> {
  const scheduleId = settings.scheduleId ?? RECONCILE_SCHEDULE_ID;
  const action: ScheduleOptionsAction = {
    type: 'startWorkflow',
    workflowType: WorkflowTypes.reconciliation,
    workflowId: `${scheduleId}-run`,
    taskQueue: settings.taskQueue ?? CARDFLOW_TASK_QUEUE,
    args: [{ config: settings.config } satisfies ReconcileInput],
  };
  return ensureIntervalSchedule(client, {
    scheduleId,
    intervalMs: settings.intervalMs,
    action,
    whileUnavailable: settings.whileUnavailable,
  });
}

const LABELS: Record<Finding['kind'], string> = {
  [FINDING_KINDS.missedEvent]: 'missed event',
  [FINDING_KINDS.orphanOrder]: 'orphan order',
  [FINDING_KINDS.outcomeMismatch]: 'outcome mismatch',
  [FINDING_KINDS.stuckOrder]: 'stuck order',
  [FINDING_KINDS.stuckReview]: 'stuck review',
  [FINDING_KINDS.externalOrder]: 'external order',
  [FINDING_KINDS.externalLedgerEntry]: 'external ledger entry',
  [FINDING_KINDS.unexplainedLedgerEntry]: 'unexplained ledger entry',
  [FINDING_KINDS.balanceMismatch]: 'balance mismatch',
  [FINDING_KINDS.belowFloor]: 'below floor',
  [FINDING_KINDS.belowCommitments]: 'below commitments',
  [FINDING_KINDS.strandedMoney]: 'stranded money',
  [FINDING_KINDS.lateDeposit]: 'late deposit',
};

function ids(finding: Finding): string {
  return Object.entries(finding.ids)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

/**
 * The report for people: the window, what was read, each account recomputed, and one row per
 * finding.
 */
export function describeReport(report: ReconcileReport): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const lines = [
    `reconciliation ${iso(report.window.start)} .. ${iso(report.window.end)}: ${report.findingCount} finding(s), ${report.repairedCount} repaired, ${report.driftCount} for an operator`,
    `read: ${
      Object.entries(report.read)
        .map(([source, n]) => `${source} ${n}`)
        .join(', ') || 'nothing'
    }; ${report.providerCalls} provider call(s), ${report.runs} run(s)`,
  ];
  if (report.accounts.length) {
    lines.push('', 'accounts (entries of the window; balance recomputed from them):');
    lines.push(
      ...table([
        ['account', 'type', 'entries', 'cardflow', 'provider', 'external', 'opening', 'recomputed', 'provider balance'],
        ...report.accounts.map((a) => [
          a.accountId,
          a.accountType,
          String(a.entries),
          String(a.cardflow),
          String(a.provider),
          String(a.external),
          a.openingBalance ?? '-',
          a.recomputedBalance ?? '-',
          `${a.providerBalance} ${a.currency}`,
        ]),
      ]).map((l) => `  ${l}`),
    );
  }
  if (report.findings.length) {
    lines.push('', 'findings:');
    lines.push(
      ...table([
        ['kind', 'ids', 'detail', 'action'],
        ...report.findings.map((f) => [
          `${LABELS[f.kind]}${f.repaired ? ' (repaired)' : ''}`,
          ids(f),
          f.detail,
          f.action,
        ]),
      ]).map((l) => `  ${l}`),
    );
    if (report.omittedFindings) lines.push(`  ... and ${report.omittedFindings} more (counts above include them)`);
  }
  return lines.join('\n');
}

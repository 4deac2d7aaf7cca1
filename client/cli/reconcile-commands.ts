/**
 * `cardflow reconcile`: runs a reconciliation now and prints its report (a table, or the report
 * as JSON with --json); exits 3 when something asks for an operator (drift), 0 when the run found
 * nothing or repaired all it found. `--schedule` creates or updates the Temporal Schedule that runs
 * it every CARDFLOW_RECONCILE_INTERVAL (the worker does the same at start).
 */
import { type ReconcileReport } from '../../domain/reconciliation';
import { describeReport, ensureReconcileSchedule, reconcileSettings, runReconciliation } from '../reconciliation';
import { parseDuration } from '../../platform/config/values/duration';
import { acknowledgeStranded, describeStranded, getStrandedStatus } from '../stranded-money';
import { type CliContext, type Command, ExitCodes, printResult, UsageError } from './context';

/** `--since`: an ISO time (`2026-05-01T00:00:00Z`) or a duration back from now (`2h`, `3d`). */
export function parseSince(text: string, now: number): number {
  const back = parseDuration(text);
  if (back !== undefined) return now - back;
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at))
    throw new UsageError('--since: must be an ISO time (2026-05-01T00:00:00Z) or a duration (2h, 3d)');
  if (at > now) throw new UsageError('--since: must not be in the future');
  return at;
}

async function reconcile(ctx: CliContext): Promise<number> {
  const { config, intervalMs } = reconcileSettings(ctx.config);
  if (ctx.values.schedule) {
    if (ctx.values.since) throw new UsageError('--since is for a run now; the schedule reads from its previous run');
    const { scheduleId, created } = await ensureReconcileSchedule(await ctx.client(), {
      intervalMs,
      config,
      ...ctx.startOptions,
    });
    const every = `${intervalMs / 60_000} min`;
    printResult(ctx, { scheduleId, created, intervalMs }, () =>
      created ? `schedule ${scheduleId} created: every ${every}` : `schedule ${scheduleId} updated: every ${every}`,
    );
    return ExitCodes.done;
  }
  const since = ctx.values.since === undefined ? undefined : parseSince(ctx.values.since, Date.now());
  const report: ReconcileReport = await runReconciliation(
    await ctx.client(),
    { ...(since === undefined ? {} : { since }), config },
    ctx.startOptions,
  );
  printResult(ctx, report, () => describeReport(report));
  return report.driftCount > 0 ? ExitCodes.drift : ExitCodes.done;
}

/** Ends a `strandedMoney` record once an operator has accounted for the money it names. */
async function acknowledge(ctx: CliContext, workflowId: string | undefined): Promise<number> {
  if (!workflowId)
    throw new UsageError("acknowledge needs the record's workflow id (a stranded_money finding names it)");
  const by = ctx.values.by?.trim();
  if (!by) throw new UsageError('--by: is required (who acknowledges the money left at the provider)');
  const client = await ctx.client();
  const before = await getStrandedStatus(client, workflowId);
  const done =
    before.stage === 'acknowledged'
      ? before
      : await acknowledgeStranded(client, workflowId, { by, ...(ctx.values.note ? { note: ctx.values.note } : {}) });
  printResult(ctx, done, () => `${workflowId} ${describeStranded(done)}`);
  return ExitCodes.done;
}

export const ACKNOWLEDGE_COMMAND: Command = {
  name: 'acknowledge',
  usage: ['acknowledge <workflowId> --by <name> [--note <text>] [--json]'],
  summary: 'acknowledge money a failed or cancelled process left at the provider (a stranded_money finding)',
  details: [
    '<workflowId>: the strandedMoney record a stranded_money finding names (`cardflow reconcile` lists them).',
    '--by: who acknowledges it; --note: what was done about the money. The record ends and is no longer reported.',
  ],
  options: ['by', 'note', 'json'],
  run: (ctx, args) => acknowledge(ctx, args[0]),
};

export const RECONCILE_COMMAND: Command = {
  name: 'reconcile',
  usage: ['reconcile [--since <time>] [--json]', 'reconcile --schedule'],
  summary: 'compare cardflow with the provider now, repair missed events, report the rest (exit 3 on drift)',
  details: [
    '--since: an ISO time or a duration back from now (2h, 3d); default: from the previous run, less the overlap.',
    '--schedule: create or update the schedule that runs it every CARDFLOW_RECONCILE_INTERVAL (default 1h).',
    'Thresholds: CARDFLOW_RECONCILE_OPERATION_SLA, _REVIEW_SLA, _EVENT_GRACE, _OVERLAP; CARDFLOW_BALANCE_FLOOR, CARDFLOW_SHARED_ACCOUNT_FLOOR.',
  ],
  options: ['since', 'json', 'schedule'],
  run: (ctx) => reconcile(ctx),
};

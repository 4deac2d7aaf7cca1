/**
 * `reconciliation` (domain/reconciliation.ts): one run compares a window of the provider's records
 * with cardflow's workflows. Activities page through the sources a few pages at a time and repair
 * missed events by re-delivering them; the workflow keeps only the cursor and a bounded report,
 * and continues as new every {@link STEPS_PER_RUN} steps (or when the server suggests it), so
 * 10,000 orders in a window never grow one history without bound.
 *
 * The report is answered by `reconcileReportQuery` while it runs and after it ends, returned as the
 * result, and its finding count is the search attribute CardflowFindings (the Temporal UI lists the
 * runs that found something); its findings by kind are counted on the worker's metrics.
 */
import { reconciliationWorkflow } from '../domain/workflows';
import { continueAsNew, proxyActivities, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { CardflowActivities } from '../activities';
import { CardflowFindings, CardflowFlow, CardflowStage } from '../domain/search-attributes';
import {
  DEFAULT_RECONCILE_CONFIG,
  emptyReport,
  reconcileReportQuery,
  withFindings,
  type ReconcileConfig,
  type ReconcileCursor,
  type ReconcileInput,
  type ReconcileReport,
  type Finding,
} from '../domain/reconciliation';
import { NotificationTypes } from '../domain/notifications';
import { Notifier } from './reporting/notifier';
import { FailureTypes } from '../domain/failure-types';
import { countFindings } from './reporting/finding-metrics';
import { NON_RETRYABLE_TYPES } from './calls/profiles';

/** Reconciliation steps (activity calls) per run before it continues as new: about 300 events. */
export const STEPS_PER_RUN = 100;

/**
 * A step reads up to five pages and looks up their owners; it heartbeats after each page and while
 * a request runs (activities/heartbeats.ts), so a dead worker's step is retried after 10 s. The
 * retry policy retries through about 14 minutes of provider trouble (20 attempts, 1 s doubling to 1
 * min).
 */
const { beginReconciliation, reconcileStep, checkBalances } = proxyActivities<CardflowActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 20,
    nonRetryableErrorTypes: [...NON_RETRYABLE_TYPES, FailureTypes.reconciliationNotConfigured],
  },
});

export async function reconciliation(input: ReconcileInput & { stepsPerRun?: number } = {}): Promise<ReconcileReport> {
  const config: ReconcileConfig = input.carried?.config ?? { ...DEFAULT_RECONCILE_CONFIG, ...input.config };
  let report: ReconcileReport | undefined = input.carried?.report;
  setHandler(reconcileReportQuery, () => report);

  let cursor: ReconcileCursor | undefined = input.carried?.cursor;
  // Findings are told to the merchant's backend when the worker has a URL (reporting/notifier.ts);
  // the plan learnt by the first run is carried across continue-as-new.
  const notifier = new Notifier();
  notifier.enable(input.carried);
  const tell = (findings: readonly Finding[]) => {
    if (findings.length > 0)
      notifier.emit(NotificationTypes.reconciliationFindings, { window: report!.window, findings: [...findings] });
  };
  if (!input.carried) {
    const begun = await beginReconciliation({
      ...(input.since === undefined ? {} : { since: input.since }),
      ...(input.until === undefined ? {} : { until: input.until }),
      config,
    });
    notifier.enable(begun);
    report = { ...emptyReport(begun.window), ...(input.since === undefined ? {} : { sinceGiven: true }) };
    cursor = begun.cursor;
    upsertSearchAttributes([
      { key: CardflowFlow, value: reconciliationWorkflow.flow },
      { key: CardflowStage, value: 'running' },
    ]);
  }
  let current: ReconcileReport = report!;

  const stepsPerRun = input.stepsPerRun ?? STEPS_PER_RUN;
  for (let steps = 0; cursor; steps++) {
    if (steps >= stepsPerRun || workflowInfo().continueAsNewSuggested) {
      upsertSearchAttributes([{ key: CardflowFindings, value: current.findingCount }]);
      await notifier.flush();
      const notifications = notifier.current;
      await continueAsNew<typeof reconciliation>({
        ...(input.stepsPerRun === undefined ? {} : { stepsPerRun: input.stepsPerRun }),
        carried: {
          cursor,
          report: { ...current, runs: current.runs + 1 },
          config,
          ...(notifications ? { notifications } : {}),
        },
      });
    }
    const step = await reconcileStep({ cursor, window: current.window, config });
    tell(step.findings);
    current = withFindings(current, step.findings);
    current = {
      ...current,
      read: { ...current.read, [step.source]: (current.read[step.source] ?? 0) + step.read },
      providerCalls: current.providerCalls + step.providerCalls,
      accounts: step.account ? [...current.accounts, step.account] : current.accounts,
    };
    report = current;
    cursor = step.next;
  }

  const balances = await checkBalances({ config });
  tell(balances);
  current = { ...withFindings(current, balances), status: 'completed' };
  report = current;
  upsertSearchAttributes([
    { key: CardflowFindings, value: current.findingCount },
    { key: CardflowStage, value: current.driftCount > 0 ? 'drift' : 'clean' },
  ]);
  countFindings(current);
  await notifier.flush();
  return current;
}

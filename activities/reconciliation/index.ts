/**
 * Reconciliation's provider reads, a few pages per activity call: the workflow carries only the
 * cursor and the findings, so its history grows with calls, not orders. Queries keep the spec's
 * limits (pageSize 100, ledger 30 days, wallet transactions 90 days). The readers: cursors.ts,
 * orders.ts, judging.ts and redelivery.ts, ledger.ts, balances.ts (docs/reconciliation.md).
 * Repairs are re-deliveries only: nothing here mutates anything at the provider.
 */
import { activityInfo } from '@temporalio/activity';
import type { Finding, ReconcileConfig, ReconcileCursor } from '../../domain/reconciliation';
import { FailureTypes } from '../../domain/failure-types';
import type { ActivityDeps } from '../deps';
import { convertingFailures } from '../failures';
import { nonRetryable } from '../../domain/failures';
import type { ReconcilePort } from './temporal-port';
import { checkBalances } from './balances';
import { firstCursor, type ReconcileStep, type ReconcileWindow } from './cursors';
import { ledgerStep } from './ledger';
import { orderStep } from './orders';
import { notificationPlanOf } from '../notifications';
import type { NotificationPlan } from '../../domain/notifications';

export { PAGES_PER_STEP, type ReconcileStep, type ReconcileWindow } from './cursors';

function missingPort(): never {
  throw nonRetryable(
    FailureTypes.reconciliationNotConfigured,
    'reconciliation needs the Temporal port the worker provides (activityDeps.reconciliation)',
  );
}

export function createReconciliationActivities(deps: ActivityDeps) {
  const { provider } = deps;
  const port = (): ReconcilePort => deps.reconciliation ?? missingPort();

  return convertingFailures({
    /**
     * Fixes the run's window (default: from the previous run's end, less the overlap, to now) and
     * where paging starts.
     */
    async beginReconciliation(input: {
      since?: number;
      until?: number;
      config: ReconcileConfig;
    }): Promise<{ window: ReconcileWindow; cursor: ReconcileCursor; notifications?: NotificationPlan }> {
      const end = input.until ?? Date.now();
      let start = input.since;
      if (start === undefined) {
        const previous = await port().previousWindowEnd(activityInfo().taskQueue);
        start = previous === undefined ? end - input.config.firstLookbackMs : previous - input.config.overlapMs;
      }
      start = Math.min(start, end);
      const window = { start, end };
      return { window, cursor: firstCursor(window, input.config), ...notificationPlanOf(deps) };
    },

    /**
     * Reads up to {@link PAGES_PER_STEP} pages from the cursor, judges them, repairs missed events.
     */
    async reconcileStep(input: {
      cursor: ReconcileCursor;
      window: ReconcileWindow;
      config: ReconcileConfig;
    }): Promise<ReconcileStep> {
      return input.cursor.source === 'ledger'
        ? ledgerStep(provider, input.cursor, input.window, input.config)
        : orderStep(provider, port, input.cursor, input.window, input.config);
    },

    /**
     * Every account's available balance against its floor (WALLET: the merchant wallet's; MARGIN:
     * the shared accounts') and against what running workflows are about to spend from it.
     */
    async checkBalances(input: { config: ReconcileConfig }): Promise<Finding[]> {
      return checkBalances(provider, port, activityInfo().taskQueue, input.config);
    },
  });
}

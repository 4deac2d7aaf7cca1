/**
 * What the card entity reads to catch up and to follow a cancellation (spec: Card records;
 * Ledger entry): the card's latest authorization, fee and operation records (the same records
 * the webhooks carry, so the workflow learns them by the same rules and ignores repeats), and
 * the `card_cancel` ledger entry that shows a cancelled card's balance back on its account.
 */
import { cancellationSignal } from '@temporalio/activity';
import { cmp } from '../provider/money';
import type { CardOperationRecord } from '../provider/schemas/card';
import type { CardAuthFeeRecord, CardAuthTransaction } from '../provider/schemas/card-records';
import { FailureTypes } from '../domain/failure-types';
import type { NotificationPlan } from '../domain/notifications';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import { longPoll, type PollSettings } from './long-poll';
import { notificationPlanOf } from './notifications';

/** Most records of each kind one catch-up reads (the newest page); older ones are the reconciliation's. */
export const CATCH_UP_PAGE = 50;

/** The card's records since a provider time, oldest first. */
export interface CardRecordsSince {
  authorizations: CardAuthTransaction[];
  fees: CardAuthFeeRecord[];
  operations: CardOperationRecord[];
  /** The notification plan, for the card entity whose first activity this is (activities/notifications.ts). */
  notifications?: NotificationPlan;
}

/** A cancellation followed to its end: the cancel record and what came back to the account. */
export interface CancelReturn {
  orderNo: string;
  reason?: string;
  /** `card_cancel` in the ledger, or "0" when the card held nothing. */
  returnedAmount: string;
  currency?: string;
  accountId?: string;
}

function oldestFirst<T extends { transactionTime?: number | null }>(records: T[], since: number | undefined): T[] {
  return records
    .filter((r) => since === undefined || (r.transactionTime ?? 0) >= since)
    .sort((a, b) => (a.transactionTime ?? 0) - (b.transactionTime ?? 0));
}

export function createCardRecordActivities(deps: ActivityDeps) {
  const { provider } = deps;

  async function cancelRecord(cardNo: string): Promise<CardOperationRecord | undefined> {
    const page = await provider.listCardTransactions(
      { pageNum: 1, pageSize: 10, cardNo, type: 'cancel' },
      { signal: cancellationSignal() },
    );
    return page.records.find((r) => r.cardNo === cardNo);
  }

  return convertingFailures({
    /**
     * The card's newest authorization, fee and operation records at or after `since` (provider
     * time; all of the newest page when absent), oldest first: what webhooks may have missed.
     */
    async cardRecordsSince(input: { cardNo: string; since?: number }): Promise<CardRecordsSince> {
      const { cardNo, since } = input;
      const signal = cancellationSignal();
      const query = { pageNum: 1, pageSize: CATCH_UP_PAGE, cardNo, ...(since ? { startTime: since } : {}) };
      const [authorizations, fees, operations] = await Promise.all([
        provider.listCardAuthTransactions(query, { signal }),
        provider.listCardAuthFees(query, { signal }),
        provider.listCardTransactions(query, { signal }),
      ]);
      return {
        authorizations: oldestFirst(authorizations.records, since),
        fees: oldestFirst(fees.records, since),
        operations: oldestFirst(operations.records, since),
        ...notificationPlanOf(deps),
      };
    },

    /**
     * Waits for the card's cancel record to succeed and, when it returned money, for its
     * `card_cancel` entry in the ledger (spec: Ledger entry bizType); the amount that came back.
     */
    async awaitCancelReturn(input: { cardNo: string; poll: PollSettings }): Promise<CancelReturn> {
      const { cardNo } = input;
      return longPoll<CancelReturn | undefined>({
        poll: input.poll,
        reprobes: deps.reprobes,
        what: `the balance of cancelled card ${cardNo} back on its account`,
        probe: async (signal) => {
          const record = await cancelRecord(cardNo);
          if (!record) return undefined;
          if (record.status === 'fail')
            throw nonRetryable(FailureTypes.operationFailed, `the cancel ${record.orderNo} of card ${cardNo} failed`);
          if (record.status !== 'success') return undefined;
          const reason = record.description ?? record.remark ?? undefined;
          const base = { orderNo: record.orderNo, ...(reason ? { reason } : {}), currency: record.currency };
          if (cmp(record.amount, '0') <= 0) return { ...base, returnedAmount: '0' };
          const ledger = await provider.listLedgerEntries(
            { pageNum: 1, pageSize: 10, orderNo: record.orderNo, bizType: 'card_cancel' },
            { signal },
          );
          const entry = ledger.records.find((e) => e.orderNo === record.orderNo && e.bizType === 'card_cancel');
          return entry ? { ...base, returnedAmount: entry.amount, accountId: entry.accountId } : undefined;
        },
        done: (found) => found !== undefined,
        describe: (found) => (found ? 'returned' : 'not yet returned'),
      }) as Promise<CancelReturn>;
    },
  });
}

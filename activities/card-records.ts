/**
 * What the card entity reads to catch up and to follow a cancellation (spec: Card records;
 * Ledger entry): the card's latest authorization, fee and operation records (the same records
 * the webhooks carry, so the workflow learns them by the same rules and ignores repeats), and
 * where a cancelled card's balance went (domain/cancel-return.ts).
 */
import { cancellationSignal } from '@temporalio/activity';
import { cmp } from '../provider/money';
import { paginatePages, type PageFetcher } from '../provider/paginate';
import { PAGE_SIZE_MAX } from '../provider/rules';
import type { CardOperationRecord } from '../provider/schemas/card';
import type { CardAuthFeeRecord, CardAuthTransaction } from '../provider/schemas/card-records';
import {
  CANCEL_RETURN_BIZ_TYPES,
  findCancelReturn,
  type CancelFacts,
  type CancelReturnMatch,
} from '../domain/cancel-return';
import { READ_CLOCK_ALLOWANCE_MS } from '../domain/event-order';
import { FailureTypes } from '../domain/failure-types';
import type { NotificationPlan } from '../domain/notifications';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import { longPoll, type PollSettings } from './long-poll';
import { notificationPlanOf } from './notifications';

/**
 * Most records of each kind one catch-up reads (the newest page); older ones are the
 * reconciliation's.
 */
export const CATCH_UP_PAGE = 50;

/** The card's records since a provider time, oldest first. */
export interface CardRecordsSince {
  authorizations: CardAuthTransaction[];
  fees: CardAuthFeeRecord[];
  operations: CardOperationRecord[];
  /**
   * The notification plan, for the card entity whose first activity this is
   * (activities/notifications.ts).
   */
  notifications?: NotificationPlan;
}

/** A cancellation followed to its end: the cancel record and what came back, and how. */
export interface CancelReturn {
  orderNo: string;
  reason?: string;
  /** What came back (domain/cancel-return.ts), or "0" when the card held nothing. */
  returnedAmount: string;
  currency?: string;
  accountId?: string;
  /** How it came back and what tied it to the card (absent when nothing was held). */
  returnedBy?: Pick<CancelReturnMatch, 'path' | 'orderNo' | 'matchedBy'>;
}

/**
 * Every record of a paged query, page after page (a return may be on any page since the cancel).
 */
async function everyRecord<T>(fetchPage: PageFetcher<T>): Promise<T[]> {
  const records: T[] = [];
  for await (const record of paginatePages(fetchPage)) records.push(record);
  return records;
}

/** A cancel record's state, as the card's workflow names it when its balance was not seen back. */
export interface CancelState {
  orderNo: string;
  status: string;
  amount: string;
  currency: string;
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

  /**
   * The return of a cancel's balance seen since the cancel (less the clock allowance): the card's
   * withdrawal records and the ledger's entries of each return bizType. An entry taken by its
   * amount alone is first looked up among the card records: one that is another card's is set
   * aside.
   */
  async function returnOf(
    cancel: CancelFacts,
    record: CardOperationRecord,
    signal: AbortSignal,
  ): Promise<CancelReturnMatch | undefined> {
    const startTime = Math.max(0, record.transactionTime - READ_CLOCK_ALLOWANCE_MS);
    const page = { pageSize: PAGE_SIZE_MAX, startTime };
    const [withdrawals, ...ledgers] = await Promise.all([
      everyRecord((pageNum) =>
        provider.listCardTransactions({ ...page, pageNum, cardNo: cancel.cardNo, type: 'withdraw' }, { signal }),
      ),
      ...CANCEL_RETURN_BIZ_TYPES.map((bizType) =>
        everyRecord((pageNum) => provider.listLedgerEntries({ ...page, pageNum, bizType }, { signal })),
      ),
    ]);
    const entries = ledgers.flat();
    const foreign = new Set<string>();
    for (;;) {
      const match = findCancelReturn({ cancel, withdrawals, entries, foreign });
      if (match?.matchedBy !== 'amount') return match;
      const named = await provider.listCardTransactions(
        { pageNum: 1, pageSize: 10, orderNo: match.orderNo },
        { signal },
      );
      const owner = named.records.find((r) => r.orderNo === match.orderNo)?.cardNo;
      if (!owner || owner === cancel.cardNo) return match;
      foreign.add(match.orderNo);
    }
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
     * The card's cancel record now: what a cancel whose balance was not seen back left on the card.
     */
    async cancelRecordOf(input: { cardNo: string }): Promise<{ cancel?: CancelState }> {
      const record = await cancelRecord(input.cardNo);
      if (!record) return {};
      const { orderNo, status, amount, currency } = record;
      return { cancel: { orderNo, status, amount, currency } };
    },

    /**
     * Waits for the card's cancel record to succeed and, when it took money off the card, for that
     * money to come back by a path the spec describes (domain/cancel-return.ts): the amount that
     * came back and how. The workflow bounds the wait (its schedule-to-close).
     */
    async awaitCancelReturn(input: { cardNo: string; poll: PollSettings }): Promise<CancelReturn> {
      const { cardNo } = input;
      return longPoll<CancelReturn | undefined>({
        poll: input.poll,
        reprobes: deps.reprobes,
        what: `the balance of cancelled card ${cardNo} back from the provider`,
        probe: async (signal) => {
          const record = await cancelRecord(cardNo);
          if (!record) return undefined;
          if (record.status === 'fail')
            throw nonRetryable(FailureTypes.operationFailed, `the cancel ${record.orderNo} of card ${cardNo} failed`);
          if (record.status !== 'success') return undefined;
          const reason = record.description ?? record.remark ?? undefined;
          const base = { orderNo: record.orderNo, ...(reason ? { reason } : {}), currency: record.currency };
          if (cmp(record.amount, '0') <= 0) return { ...base, returnedAmount: '0' };
          const match = await returnOf(
            { cardNo, orderNo: record.orderNo, amount: record.amount, at: record.transactionTime },
            record,
            signal,
          );
          if (!match) return undefined;
          const { path, orderNo, matchedBy } = match;
          return {
            ...base,
            returnedAmount: match.amount,
            ...(match.accountId ? { accountId: match.accountId } : {}),
            returnedBy: { path, orderNo, matchedBy },
          };
        },
        done: (found) => found !== undefined,
        describe: (found) => (found ? 'returned' : 'not yet returned'),
      }) as Promise<CancelReturn>;
    },
  });
}

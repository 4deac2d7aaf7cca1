/**
 * Where a cancelled card's balance went. The spec names three ways out of a cancelled card: the
 * `card_cancel` ledger entry, a `withdraw` record with subType REFUND ("merchant refund after a
 * card is cancelled") with its `card_withdraw` entry, and a `card_refund` entry. It ties none of
 * them to the cancel record's orderNo: what it guarantees is the card (on the card's records)
 * and the amount (the cancel record's). So a return is matched by those; an entry that names no
 * record of this card is taken by its amount only when it came after the cancel (both times are
 * the provider's clock) and names no record of another card either.
 */
import { cmp } from '../provider/money';
import type { LedgerEntry } from '../provider/schemas/account';
import type { CardOperationRecord } from '../provider/schemas/card';

/** The ledger bizTypes a cancelled card's balance may come back under (spec: Ledger entry). */
export const CANCEL_RETURN_BIZ_TYPES = ['card_cancel', 'card_withdraw', 'card_refund'] as const;
export type CancelReturnBizType = (typeof CANCEL_RETURN_BIZ_TYPES)[number];

/** How the balance left: a ledger entry's bizType, or the card's REFUND withdrawal record alone. */
export type CancelReturnPath = CancelReturnBizType | 'refund_withdrawal';

/** The cancel record as the match needs it. */
export interface CancelFacts {
  cardNo: string;
  orderNo: string;
  /** The balance the cancel took off the card (the record's amount). */
  amount: string;
  /** The cancel record's transactionTime: no return precedes it. */
  at: number;
}

/** A return found, and what ties it to the card. */
export interface CancelReturnMatch {
  path: CancelReturnPath;
  amount: string;
  /** The ledger entry's orderNo, or the withdrawal record's. */
  orderNo: string;
  accountId?: string;
  /**
   * `card`: the entry or record names this card's cancel or withdrawal; `amount`: its amount alone.
   */
  matchedBy: 'card' | 'amount';
}

const sameAmount = (a: string, b: string) => cmp(a, b) === 0;

/**
 * The return of `cancel`'s balance among the card's withdrawal records and the ledger's incoming
 * entries of {@link CANCEL_RETURN_BIZ_TYPES} since the cancel, or undefined when none is seen.
 * `foreign`: orderNos known to be records of other cards, never taken by amount alone.
 */
export function findCancelReturn(input: {
  cancel: CancelFacts;
  withdrawals: readonly CardOperationRecord[];
  entries: readonly LedgerEntry[];
  foreign?: ReadonlySet<string>;
}): CancelReturnMatch | undefined {
  const { cancel, withdrawals, entries } = input;
  const refunds = withdrawals.filter(
    (r) => r.cardNo === cancel.cardNo && r.type === 'withdraw' && r.status === 'success',
  );
  const ownOrders = new Set([cancel.orderNo, ...refunds.map((r) => r.orderNo)]);
  const incoming = entries.filter(
    (e) =>
      e.direction === 'IN' &&
      (CANCEL_RETURN_BIZ_TYPES as readonly string[]).includes(e.bizType) &&
      sameAmount(e.amount, cancel.amount),
  );
  const entryMatch = (e: LedgerEntry, matchedBy: CancelReturnMatch['matchedBy']): CancelReturnMatch => ({
    path: e.bizType as CancelReturnBizType,
    amount: e.amount,
    orderNo: e.orderNo,
    accountId: e.accountId,
    matchedBy,
  });
  const linked = incoming.find((e) => ownOrders.has(e.orderNo));
  if (linked) return entryMatch(linked, 'card');
  const refund = refunds.find((r) => sameAmount(r.amount, cancel.amount));
  if (refund) return { path: 'refund_withdrawal', amount: refund.amount, orderNo: refund.orderNo, matchedBy: 'card' };
  const byAmount = incoming.find((e) => e.createTime >= cancel.at && !input.foreign?.has(e.orderNo));
  return byAmount ? entryMatch(byAmount, 'amount') : undefined;
}

/**
 * What a change of the card's state notifies the merchant's backend (docs/notifications.md, card
 * events): pure mappings from what the state learned (card-entity/state.ts) to the events' data,
 * no commands; the run hands them to its `NoticeHold` (card-entity/notice-hold.ts). Only ids and
 * amounts: `cardNo` is the provider's id of the card, never its number, CVV or expiry.
 */
import type { CardSnapshot } from '../../domain/card-entity';
import { NotificationTypes, type NotificationData } from '../../domain/notifications';
import { nonEmpty, type ProviderEventBody } from '../../domain/provider-event';

type CardNoticeType =
  | typeof NotificationTypes.cardTransaction
  | typeof NotificationTypes.cardStatusChanged
  | typeof NotificationTypes.cardBlocked
  | typeof NotificationTypes.cardUnblocked
  | typeof NotificationTypes.cardIssued
  | typeof NotificationTypes.cardCancelled;

/** One event the card entity emits, typed by its type. */
export type CardNotice = { [T in CardNoticeType]: { type: T; data: NotificationData<T> } }[CardNoticeType];

/** The card's status and block, before and after a step the state learned from. */
export interface CardMark {
  status?: string | undefined;
  blocked: boolean;
}

/**
 * What one event the state learned notifies, in the order it is told: its `card.transaction`,
 * then the block or status it moved (from `before` to `after`), and the 3DS record to relay.
 * A record's older state (`learned: 'older'`) tells its transaction only when `toldWhenOlder()`
 * (asked only then).
 */
export function eventNotices(
  cardNo: string,
  event: ProviderEventBody,
  learned: 'new' | 'older',
  move: { before: CardMark; after: CardMark; customerRef: string | undefined },
  toldWhenOlder: () => boolean,
): { notices: CardNotice[]; relay: string | undefined } {
  const notices: CardNotice[] = [];
  const transaction = transactionNotice(cardNo, event);
  if (transaction && (learned === 'new' || toldWhenOlder()))
    notices.push({ type: NotificationTypes.cardTransaction, data: transaction });
  const merchantOrderNo = event.category === 'card_transaction' ? nonEmpty(event.record.merchantOrderNo) : undefined;
  const ids = { customerRef: move.customerRef, merchantOrderNo };
  notices.push(...statusNotices(cardNo, move.before, move.after, ids));
  return { notices, relay: relayedThreeDs(event) };
}

/**
 * The 3DS record types whose value the cardholder needs: relayed to the backend (an activation code
 * never is).
 */
const RELAYED_3DS_TYPES: readonly string[] = ['third_3ds_otp', 'auth_url'];

/** The tradeNo of a `card_3ds` event whose code or URL is relayed, else undefined. */
export function relayedThreeDs(event: ProviderEventBody): string | undefined {
  if (event.category !== 'card_3ds' || !RELAYED_3DS_TYPES.includes(event.record.type)) return undefined;
  return nonEmpty(event.record.tradeNo);
}

/**
 * The `card.transaction` of a money record: an authorization record is a `refund`, a `fee`
 * (maintain_fee), a `settlement` (an auth the provider settled: status succeed) or an
 * `authorization` (held, declined, a verification, a Void); a fee record is a `fee`; an
 * overdraft statement an `overdraft`. Other card operations (deposits, withdrawals, freezes) are
 * not transactions of the card's spending.
 */
export function transactionNotice(
  cardNo: string,
  event: ProviderEventBody,
): NotificationData<typeof NotificationTypes.cardTransaction> | undefined {
  if (event.category === 'card_auth_transaction') {
    const r = event.record;
    const settlement = r.type === 'auth' && r.status === 'succeed';
    const kind =
      r.type === 'refund' ? 'refund' : r.type === 'maintain_fee' ? 'fee' : settlement ? 'settlement' : 'authorization';
    const settleAmount = settlement ? nonEmpty(r.settleAmount) : undefined;
    const origin = nonEmpty(r.originTradeNo);
    const merchantName = nonEmpty(r.merchantName);
    return {
      cardNo,
      kind,
      tradeNo: r.tradeNo,
      ...(origin ? { originTradeNo: origin } : {}),
      amount: settleAmount ?? r.authorizedAmount,
      currency: (settleAmount ? nonEmpty(r.settleCurrency) : undefined) ?? r.authorizedCurrency,
      status: r.status,
      ...(merchantName ? { merchantName } : {}),
    };
  }
  if (event.category === 'card_fee_patch') {
    const r = event.record;
    return {
      cardNo,
      kind: 'fee',
      tradeNo: r.tradeNo,
      originTradeNo: r.originTradeNo,
      amount: r.amount,
      currency: r.currency,
      status: r.status,
    };
  }
  if (event.category === 'card_transaction' && event.record.type === 'overdraft_statement') {
    const r = event.record;
    return { cardNo, kind: 'overdraft', tradeNo: r.orderNo, amount: r.amount, currency: r.currency, status: r.status };
  }
  return undefined;
}

/** The events of a move from `before` to `after`: the block set or lifted, else a status change. */
export function statusNotices(
  cardNo: string,
  before: CardMark,
  after: CardMark,
  ids: { customerRef?: string | undefined; merchantOrderNo?: string | undefined } = {},
): CardNotice[] {
  // A cancel ends the block with the card: `card.cancelled` tells it, once it knows what came back.
  if (after.status === 'cancel') return [];
  const operation = {
    cardNo,
    ...(ids.customerRef ? { customerRef: ids.customerRef } : {}),
    ...(ids.merchantOrderNo ? { merchantOrderNo: ids.merchantOrderNo } : {}),
  };
  if (after.blocked && !before.blocked)
    return [{ type: NotificationTypes.cardBlocked, data: { ...operation, cardStatus: 'blocked' } }];
  if (before.blocked && !after.blocked)
    return [{ type: NotificationTypes.cardUnblocked, data: { ...operation, cardStatus: after.status ?? 'Normal' } }];
  // The first status a fresh entity learns is no move.
  if (before.status === undefined || after.status === undefined || after.status === before.status) return [];
  return [
    {
      type: NotificationTypes.cardStatusChanged,
      data: { cardNo, status: after.status, previousStatus: before.status },
    },
  ];
}

/** `card.issued`: the card exists, with the type and status its first read found. */
export function issuedNotice(
  cardNo: string,
  first: CardSnapshot & { cardTypeId: string },
  customerRef: string | undefined,
): CardNotice {
  const data = {
    cardNo,
    cardTypeId: first.cardTypeId,
    ...(customerRef ? { customerRef } : {}),
    ...(first.holderId ? { holderId: first.holderId } : {}),
    cardStatus: first.status ?? 'unknown',
  };
  return { type: NotificationTypes.cardIssued, data };
}

/** `card.cancelled`: the cancel is recorded, with what came back when it was seen back. */
export function cancelledNotice(
  cardNo: string,
  customerRef: string | undefined,
  back: { amountReturned?: string | undefined; currency?: string | undefined },
): CardNotice {
  const data = {
    cardNo,
    ...(customerRef ? { customerRef } : {}),
    cardStatus: 'cancel',
    ...(back.amountReturned !== undefined ? { amountReturned: back.amountReturned } : {}),
    ...(back.currency ? { currency: back.currency } : {}),
  };
  return { type: NotificationTypes.cardCancelled, data };
}

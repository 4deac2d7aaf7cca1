/**
 * A provider webhook, as the receiver forwards it to the workflow that owns it: one type per
 * category, its record parsed once, at the edge (webhooks/categories.ts), with the category's
 * record schema of the spec, so a workflow reads typed fields and never re-parses a loose record.
 *
 * The receiver verifies the signature, drops repeats of the same `X-WSB-REQUEST-ID`, parses the
 * body (decimals and ids become strings, JSON-safe for Temporal payloads) and signals the owning
 * workflow. Delivery is at least once and unordered (provider-notes, Webhooks): workflows key
 * their handling on the record's identity and status (domain/event-identity.ts), never on the
 * request id alone.
 */
import { defineSignal } from '@temporalio/workflow';
import { isFinalOperationStatus, isFinalReviewStatus } from '../provider/rules';
import type { ActivateCardResult, CardOperationRecord } from '../provider/schemas/card';
import type { Card3dsRecord, CardAuthFeeRecord, CardAuthTransaction } from '../provider/schemas/card-records';
import type { Cardholder, CardholderQueryRecord } from '../provider/schemas/cardholder';
import type { WalletTransaction } from '../provider/schemas/wallet';
import type { WorkOrder } from '../provider/schemas/work-order';

/**
 * The record each known category carries (provider-notes, Webhooks: the body equals the matching
 * query record). `physical_card` has no query in the spec; its body is the activation's result.
 * A `card_holder` event is the review result, not the query record: names, e-mails and phone
 * numbers never reach a workflow's history. It keeps the query record's `updateTime` where the
 * body has it: the one field that tells a reject (or pass) of a resubmitted review from the same
 * state of an earlier round (workflows/events/inbox.ts).
 */
export interface ProviderEventRecords {
  card_transaction: CardOperationRecord;
  card_auth_transaction: CardAuthTransaction;
  card_fee_patch: CardAuthFeeRecord;
  /**
   * Without `values` (webhooks/categories.ts): workflows handle a 3DS record by its tradeNo only.
   */
  card_3ds: Omit<Card3dsRecord, 'values'>;
  card_holder: CardholderEvent;
  wallet_transaction_v2: WalletTransaction;
  work: WorkOrder;
  physical_card: ActivateCardResult;
}
export type ProviderEventCategory = keyof ProviderEventRecords;

/**
 * A `card_holder` event's record: the review result, and the query record's time of its last change
 * when the body has it.
 */
export type CardholderEvent = Cardholder & { updateTime?: CardholderQueryRecord['updateTime'] | undefined };

/** One event of category `C`. */
export interface ProviderEventOf<C extends ProviderEventCategory> {
  /** `X-WSB-CATEGORY`. */
  category: C;
  /** `X-WSB-REQUEST-ID` of the delivery. */
  requestId: string;
  record: ProviderEventRecords[C];
}

/** Any provider event; `category` tells which record it carries. */
export type ProviderEvent = { [C in ProviderEventCategory]: ProviderEventOf<C> }[ProviderEventCategory];

/**
 * An event's category and typed record, before a delivery gives it a request id (the receiver's
 * parse).
 */
export type ProviderEventBody = {
  [C in ProviderEventCategory]: Omit<ProviderEventOf<C>, 'requestId'>;
}[ProviderEventCategory];

export const providerEventSignal = defineSignal<[ProviderEvent]>('providerEvent');

/** Narrows an event to one category. */
export function isEventOf<C extends ProviderEventCategory>(
  event: ProviderEvent,
  category: C,
): event is ProviderEvent & ProviderEventOf<C> {
  return event.category === category;
}

/**
 * Whether an event tells a final state: an operation, work order, activation or wallet
 * transaction that succeeded or failed, a review that passed or rejected. The one rule for the
 * receiver (it forwards only final card operations and reviews, the only states workflows act on
 * for those) and for the workflows that wait on the other categories.
 */
export function isFinalEvent(event: ProviderEventBody): boolean {
  switch (event.category) {
    case 'card_transaction':
    case 'wallet_transaction_v2':
    case 'physical_card':
    case 'work':
      return isFinalOperationStatus(recordStateOf(event));
    case 'card_holder':
      return isFinalReviewStatus(recordStateOf(event));
    default:
      return true;
  }
}

/**
 * The state a record is in, as its category names it (a work order's `tradeStatus`, the others'
 * `status`); a 3DS record never changes, so its kind stands for it. What an event's key
 * (domain/event-identity.ts) and {@link isFinalEvent} read.
 */
export function recordStateOf(event: ProviderEventBody): string | undefined {
  switch (event.category) {
    case 'work':
      return nonEmpty(event.record.tradeStatus);
    case 'card_3ds':
      return nonEmpty(event.record.type);
    default:
      return nonEmpty(event.record.status);
  }
}

/**
 * The categories whose non-final events no workflow acts on: the receiver records them without a
 * signal.
 */
export const FINAL_ONLY_CATEGORIES: readonly ProviderEventCategory[] = ['card_transaction', 'card_holder'];

/**
 * Card operation types the provider starts on its own (no merchant sent them): the card's own
 * events, which start the card's workflow when it is not running (webhooks/card-route.ts).
 */
export const PROVIDER_CARD_OPERATIONS: readonly string[] = ['blocked', 'cancel', 'withdraw', 'overdraft_statement'];

/** A text field's value, or undefined when absent or empty (records mark "none" either way). */
export function nonEmpty(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}

/**
 * The card an event names (card operations, authorizations, fees, 3DS records, activations), if
 * any.
 */
export function cardNoOf(event: ProviderEventBody): string | undefined {
  return 'cardNo' in event.record ? nonEmpty(event.record.cardNo) : undefined;
}

/**
 * The one inbox for provider events a workflow receives by signal. Delivery is at least once and
 * unordered, so every event is de-duplicated by record identity and state
 * (domain/event-identity.ts, {@link SeenKeys}); states seen by polling are keyed the same way, so
 * a late webhook for one is a repeat. Card operations are kept by merchantOrderNo and never move
 * back from a final status (domain/event-order.ts); the other categories in arrival order, for
 * a wait to pick its record ({@link EventInbox.latest}). A review can reach a state again after a
 * correction, so review states are keyed per round ({@link EventInbox.beginReviewRound}).
 * Plain records, no Maps: they cross continue-as-new as JSON.
 */
import { patched } from '@temporalio/workflow';
import type { CardOperationRecord } from '../../provider/schemas/card';
import type { Cardholder } from '../../provider/schemas/cardholder';
import { isFinalOperationStatus, isFinalReviewStatus } from '../../provider/rules';
import { keyBeforeStateFields, providerEventKey, recordStateKey, recordTimeOf } from '../../domain/event-identity';
import { movesForward } from '../../domain/event-order';
import {
  isEventOf,
  type ProviderEvent,
  type ProviderEventCategory,
  type ProviderEventOf,
  type ProviderEventRecords,
} from '../../domain/provider-event';
import {
  cardholderReviewOf,
  cardOperationOf,
  type CardholderReview,
  type CardOperation,
} from '../../domain/provider-records';

/**
 * Marks workflows that key work-order and 3DS events by their own state fields (tradeStatus; a 3DS
 * record's kind). Before it those events had no key and were dropped, so such a wait ended by its
 * probe; executions started then replay that way.
 */
export const WORK_AND_3DS_EVENTS_KEPT = 'work-and-3ds-events-kept';

/**
 * Marks workflows that take a review state recurring in a later round (its `updateTime` after the
 * round began) as a new event. Before it such an event was a repeat and the round ended by its
 * probe; executions started then replay that way.
 */
export const RECURRING_REVIEW_STATES_KEPT = 'recurring-review-states-kept';

/** Keeps the last `max` keys of a record (insertion order). */
export function trimRecord<T>(record: Record<string, T>, max: number): Record<string, T> {
  const keys = Object.keys(record);
  if (keys.length <= max) return record;
  return Object.fromEntries(keys.slice(keys.length - max).map((k) => [k, record[k] as T]));
}

/**
 * The keys of the events already handled, as a plain record. Unbounded for one run; bounded
 * (oldest dropped first) where it is carried across continue-as-new (the card entity's).
 */
export class SeenKeys {
  constructor(
    private keys: Record<string, true> = {},
    private readonly limit?: number,
  ) {}

  /** Whether `key` was handled, without recording it. */
  has(key: string): boolean {
    return this.keys[key] === true;
  }

  /** Records `key` as handled; false when it already was. */
  first(key: string): boolean {
    if (this.keys[key]) return false;
    if (this.limit === undefined) this.keys[key] = true;
    else this.keys = trimRecord({ ...this.keys, [key]: true }, this.limit);
    return true;
  }

  /** The keys, to carry across continue-as-new. */
  get record(): Record<string, true> {
    return this.keys;
  }
}

interface Entry<T> {
  value: T;
  /** Arrival order, so a wait can ignore what arrived before it began. */
  seq: number;
}

/** What a workflow waiting on card operations and cardholder reviews listens to. */
const OPERATIONS_AND_REVIEWS = ['card_transaction', 'card_holder'] as const;

export class EventInbox<C extends ProviderEventCategory = (typeof OPERATIONS_AND_REVIEWS)[number]> {
  private readonly seen = new SeenKeys();
  private operations: Record<string, Entry<CardOperation>> = {};
  private holders: Record<string, Entry<CardholderReview>[]> = {};
  private kept: ProviderEvent[] = [];
  private counter = 0;
  /**
   * Per holder, its current review round after the first (1: the first resubmission) and the
   * workflow time it began.
   */
  private reviewRounds: Record<string, { round: number; began: number }> = {};

  /**
   * `categories`: the events kept; the others are dropped (by default card operations and reviews).
   */
  constructor(private readonly categories: readonly C[] = OPERATIONS_AND_REVIEWS as unknown as readonly C[]) {}

  /** Sequence number of the latest accepted card operation or review (0 before any). */
  get position(): number {
    return this.counter;
  }

  /**
   * Records an event; false for a repeat, a category not listened to, or one that moves nothing.
   */
  add(event: ProviderEvent): boolean {
    if (!(this.categories as readonly ProviderEventCategory[]).includes(event.category)) return false;
    const key =
      keyBeforeStateFields(event) ??
      ((event.category === 'work' || event.category === 'card_3ds') && patched(WORK_AND_3DS_EVENTS_KEPT)
        ? providerEventKey(event)
        : undefined);
    if (!key) return false;
    if (event.category === 'card_holder' ? !this.firstReviewState(event, key) : !this.seen.first(key)) return false;
    if (event.category === 'card_transaction') return this.addOperation(event.record);
    if (event.category === 'card_holder') return this.addHolder(event.record);
    this.kept.push(event);
    return true;
  }

  /**
   * Called before a holder's corrected data is resubmitted: from now on a review state of that
   * holder seen only in an earlier round is new again when the provider changed the record to it
   * after this moment. A webhook of an earlier round delivered late (its `updateTime` before the
   * resubmission) stays a repeat, and so does one whose body has no `updateTime`: that round then
   * ends by its probe, as before.
   */
  beginReviewRound(holderId: string): void {
    this.reviewRounds[holderId] = { round: (this.reviewRounds[holderId]?.round ?? 0) + 1, began: Date.now() };
  }

  /** Marks a state observed by polling, so its webhook later counts as a repeat. */
  markSeen(category: 'card_transaction' | 'card_holder', id: string, status: string): void {
    this.seen.first(recordStateKey(category, id, status));
    const round = category === 'card_holder' ? this.reviewRounds[id] : undefined;
    if (round) this.seen.first(recordStateKey(category, id, status, round.round));
  }

  /** The operation of `merchantOrderNo` in a final status, if an event brought one. */
  finalOperation(merchantOrderNo: string): CardOperation | undefined {
    const entry = this.operations[merchantOrderNo];
    return entry && isFinalOperationStatus(entry.value.status) ? entry.value : undefined;
  }

  /**
   * The first final review (pass_audit or reject) of `holderId` that arrived after `since`; a
   * stale intermediate event delivered after it (reordering) does not hide it.
   */
  finalReviewSince(holderId: string, since: number): CardholderReview | undefined {
    return (this.holders[holderId] ?? []).find((e) => e.seq > since && isFinalReviewStatus(e.value.status))?.value;
  }

  /**
   * The newest kept record of `category` that satisfies `match`: newest by the record's own time
   * (domain/event-order.ts: an activation code retried late does not replace a newer one), by
   * arrival where the times are equal or absent.
   */
  latest<K extends C>(
    category: K,
    match: (record: ProviderEventRecords[K]) => boolean,
  ): ProviderEventRecords[K] | undefined {
    let best: ProviderEvent | undefined;
    for (const event of this.kept) {
      if (!isEventOf(event, category) || !match(event.record)) continue;
      if (!best || (recordTimeOf(event) ?? 0) >= (recordTimeOf(best) ?? 0)) best = event;
    }
    return best?.record as ProviderEventRecords[K] | undefined;
  }

  /**
   * Whether a review event is new: in the first round, its state was never seen; in a later one,
   * this round has not seen the state, and either no round has, or the provider reached it again
   * after this round began (`updateTime`).
   */
  private firstReviewState(event: ProviderEventOf<'card_holder'>, key: string): boolean {
    const { holderId, status } = event.record;
    const current = this.reviewRounds[holderId];
    if (!current) return this.seen.first(key);
    const roundKey = recordStateKey('card_holder', holderId, status, current.round);
    if (this.seen.has(roundKey)) return false;
    const at = recordTimeOf(event);
    const recurs = () => at !== undefined && at >= current.began && patched(RECURRING_REVIEW_STATES_KEPT);
    return (this.seen.first(key) || recurs()) && this.seen.first(roundKey);
  }

  private addOperation(record: CardOperationRecord): boolean {
    const operation = cardOperationOf(record, '');
    if (!operation.merchantOrderNo) return false;
    const current = this.operations[operation.merchantOrderNo];
    if (!movesForward(current?.value.status, operation.status, isFinalOperationStatus)) return false;
    this.operations[operation.merchantOrderNo] = { seq: ++this.counter, value: operation };
    return true;
  }

  private addHolder(record: Cardholder): boolean {
    const { merchantOrderNo: _merchantOrderNo, ...review } = cardholderReviewOf(record);
    const entries = (this.holders[review.holderId] ??= []);
    entries.push({ seq: ++this.counter, value: review });
    return true;
  }
}

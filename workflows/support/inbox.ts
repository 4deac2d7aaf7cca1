/**
 * Provider events a workflow received by signal, de-duplicated by record identity and status
 * (domain/event-identity.ts): a repeat is dropped, a reordered one never moves a record back
 * from a final status (domain/event-order.ts). States observed by polling are recorded under the same keys, so a late
 * webhook for a state already seen is a repeat too. Plain records, no Maps (STYLE).
 */
import type { CardOperationRecord } from '../../api/schemas/card';
import type { Cardholder } from '../../api/schemas/cardholder';
import { isFinalOperationStatus, isFinalReviewStatus } from '../../api/rules';
import { keyBeforeStateFields, recordStateKey } from '../../domain/event-identity';
import { movesForward } from '../../domain/event-order';
import type { ProviderEvent } from '../../domain/provider-event';
import {
  cardholderReviewOf,
  cardOperationOf,
  type CardholderReview,
  type CardOperation,
} from '../../domain/provider-records';

interface Entry<T> {
  value: T;
  /** Arrival order, so a wait can ignore what arrived before it began. */
  seq: number;
}

export class EventInbox {
  private seen: Record<string, true> = {};
  private operations: Record<string, Entry<CardOperation>> = {};
  /** Every review event per holder, in arrival order (a reject may be followed by a resubmission). */
  private holders: Record<string, Entry<CardholderReview>[]> = {};
  private counter = 0;

  /** Sequence number of the latest accepted event (0 before any). */
  get position(): number {
    return this.counter;
  }

  /** Records an event; returns false for a repeat or an event nobody here waits on. */
  add(event: ProviderEvent): boolean {
    const key = keyBeforeStateFields(event);
    if (!key || this.seen[key]) return false;
    this.seen[key] = true;
    if (event.category === 'card_transaction') return this.addOperation(event.record);
    if (event.category === 'card_holder') return this.addHolder(event.record);
    return false;
  }

  /** Marks a state observed by polling, so its webhook later counts as a repeat. */
  markSeen(category: 'card_transaction' | 'card_holder', id: string, status: string): void {
    this.seen[recordStateKey(category, id, status)] = true;
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

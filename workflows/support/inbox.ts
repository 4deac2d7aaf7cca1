/**
 * Provider events a workflow received by signal, de-duplicated by record identity and status
 * (domain/event-identity.ts): a repeat is dropped, a reordered one never moves a record back
 * from a final status. States observed by polling are recorded under the same keys, so a late
 * webhook for a state already seen is a repeat too. Plain records, no Maps (STYLE).
 */
import type { ProviderEvent } from '../../domain/provider-event';
import { recordIdOf, recordStateKey } from '../../domain/event-identity';
import type { CardholderReview, CardOperation } from '../../activities/types';
import { isFinalOperationStatus, isFinalReviewStatus } from '../../api/rules';

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

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
    const id = recordIdOf(event.category, event.record);
    const status = str(event.record.status);
    if (!id || !status) return false;
    const key = recordStateKey(event.category, id, status);
    if (this.seen[key]) return false;
    this.seen[key] = true;
    if (event.category === 'card_transaction') return this.addOperation(event.record, status);
    if (event.category === 'card_holder') return this.addHolder(event.record, status);
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

  private addOperation(record: Record<string, unknown>, status: string): boolean {
    const merchantOrderNo = str(record.merchantOrderNo);
    if (!merchantOrderNo) return false;
    const current = this.operations[merchantOrderNo];
    if (current && isFinalOperationStatus(current.value.status)) return false;
    const description = str(record.description) ?? str(record.remark);
    const cardNo = str(record.cardNo);
    const receivedAmount = str(record.receivedAmount);
    this.operations[merchantOrderNo] = {
      seq: ++this.counter,
      value: {
        orderNo: str(record.orderNo) ?? '',
        merchantOrderNo,
        ...(cardNo ? { cardNo } : {}),
        type: str(record.type) ?? '',
        status: status as CardOperation['status'],
        amount: str(record.amount) ?? '0',
        fee: str(record.fee) ?? '0',
        ...(receivedAmount ? { receivedAmount } : {}),
        currency: str(record.currency) ?? '',
        ...(description ? { description } : {}),
      },
    };
    return true;
  }

  private addHolder(record: Record<string, unknown>, status: string): boolean {
    const holderId = str(record.holderId);
    const location = str(record.statusFlowLocation);
    if (!holderId || (location !== 'admin' && location !== 'channel')) return false;
    const description = str(record.description) ?? str(record.respMsg);
    const entries = (this.holders[holderId] ??= []);
    entries.push({
      seq: ++this.counter,
      value: {
        holderId,
        status: status as CardholderReview['status'],
        statusFlowLocation: location,
        ...(description ? { description } : {}),
      },
    });
    return true;
  }
}

/**
 * Provider events of the categories EventInbox (inbox.ts) does not keep: card_3ds, physical_card,
 * work, wallet_transaction_v2. De-duplicated by record identity and state
 * (domain/event-identity.ts: at-least-once, unordered delivery), kept in arrival order with their
 * typed records, so a wait can pick the record it needs. Plain arrays and records (no Maps).
 */
import { patched } from '@temporalio/workflow';
import { keyBeforeStateFields, providerEventKey, recordTimeOf } from '../../domain/event-identity';
import {
  isEventOf,
  type ProviderEvent,
  type ProviderEventCategory,
  type ProviderEventRecords,
} from '../../domain/provider-event';

/**
 * Marks workflows that key work-order and 3DS events by their own state fields (tradeStatus; a 3DS
 * record's kind). Before it those events had no key and were dropped, so such a wait ended by its
 * probe; executions started then replay that way.
 */
export const WORK_AND_3DS_EVENTS_KEPT = 'work-and-3ds-events-kept';

export class RecordInbox<C extends ProviderEventCategory> {
  private seen: Record<string, true> = {};
  private kept: ProviderEvent[] = [];

  constructor(private readonly categories: readonly C[]) {}

  /** Keeps the event's record; false for a repeat or a category not listened to. */
  add(event: ProviderEvent): boolean {
    if (!(this.categories as readonly ProviderEventCategory[]).includes(event.category)) return false;
    const key =
      keyBeforeStateFields(event) ??
      ((event.category === 'work' || event.category === 'card_3ds') && patched(WORK_AND_3DS_EVENTS_KEPT)
        ? providerEventKey(event)
        : undefined);
    if (!key || this.seen[key]) return false;
    this.seen[key] = true;
    this.kept.push(event);
    return true;
  }

  /**
   * The newest record of `category` that satisfies `match`: newest by the record's own time
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
}

/**
 * Provider events of the categories EventInbox (inbox.ts) does not keep: card_3ds,
 * physical_card, work, wallet_transaction_v2. De-duplicated by record identity and status
 * (domain/event-identity.ts: at-least-once, unordered delivery), kept in arrival order, so a
 * wait can pick the record it needs. Plain arrays and records (STYLE: no Maps).
 */
import { providerEventKey } from '../../domain/event-identity';
import type { ProviderEvent } from '../../domain/provider-event';

interface Kept {
  seq: number;
  category: string;
  record: Record<string, unknown>;
}

export class RecordInbox {
  private seen: Record<string, true> = {};
  private kept: Kept[] = [];
  private counter = 0;

  constructor(private readonly categories: readonly string[]) {}

  /** Keeps the event's record; false for a repeat or a category not listened to. */
  add(event: ProviderEvent): boolean {
    if (!this.categories.includes(event.category)) return false;
    const key = providerEventKey(event);
    if (!key || this.seen[key]) return false;
    this.seen[key] = true;
    this.kept.push({ seq: ++this.counter, category: event.category, record: event.record });
    return true;
  }

  /** The newest record of `category` that satisfies `match`. */
  latest(category: string, match: (record: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
    for (let i = this.kept.length - 1; i >= 0; i--) {
      const k = this.kept[i] as Kept;
      if (k.category === category && match(k.record)) return k.record;
    }
    return undefined;
  }
}

/** A record field as a non-empty string, else undefined. */
export function text(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A record field as a number (timestamps arrive as numbers or digit strings), else undefined. */
export function numeric(record: Record<string, unknown>, field: string): number | undefined {
  const value = record[field];
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

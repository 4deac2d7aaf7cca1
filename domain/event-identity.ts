/**
 * Identity of a provider event's record, for de-duplication. Webhooks are delivered at least
 * once and in no guaranteed order (provider-notes, Webhooks): a record is identified by its
 * category, its id and its status, never by the delivery's request id alone. The same key is
 * recorded when a poll observes a state, so a late webhook for a state already seen is a repeat.
 */
import type { ProviderEvent } from './provider-event';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The record id a category is keyed on: merchantOrderNo or orderNo, holderId, tradeNo. */
export function recordIdOf(category: string, record: Record<string, unknown>): string | undefined {
  switch (category) {
    case 'card_transaction':
      return text(record.merchantOrderNo) ?? text(record.orderNo);
    case 'card_holder':
      return text(record.holderId);
    case 'card_auth_transaction':
    case 'card_fee_patch':
    case 'card_3ds':
      return text(record.tradeNo);
    default:
      return text(record.merchantOrderNo) ?? text(record.orderNo) ?? text(record.holderId) ?? text(record.tradeNo);
  }
}

/** `category|id|status`, e.g. `card_transaction|CF3a…|success`. */
export function recordStateKey(category: string, id: string, status: string): string {
  return `${category}|${id}|${status}`;
}

/** The state key of an event, or undefined when the record carries no id or status. */
export function providerEventKey(event: ProviderEvent): string | undefined {
  const id = recordIdOf(event.category, event.record);
  const status = text(event.record.status);
  return id && status ? recordStateKey(event.category, id, status) : undefined;
}

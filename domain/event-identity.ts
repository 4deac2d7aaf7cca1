/**
 * Identity of a provider event's record, for de-duplication. Webhooks are delivered at least
 * once and in no guaranteed order (provider-notes, Webhooks): a record is identified by its
 * category, its id and its state, never by the delivery's request id alone. The same key is
 * recorded when a poll observes a state, so a late webhook for a state already seen is a repeat.
 */
import { nonEmpty, recordStateOf, type ProviderEventBody } from './provider-event';

/** The record id a category is keyed on: merchantOrderNo or orderNo, holderId, tradeNo. */
export function recordIdOf(event: ProviderEventBody): string | undefined {
  switch (event.category) {
    case 'card_transaction':
    case 'work':
      return nonEmpty(event.record.merchantOrderNo) ?? nonEmpty(event.record.orderNo);
    case 'card_holder':
      return nonEmpty(event.record.holderId);
    case 'card_auth_transaction':
    case 'card_fee_patch':
    case 'card_3ds':
      return nonEmpty(event.record.tradeNo);
    case 'wallet_transaction_v2':
      return nonEmpty(event.record.orderNo);
    case 'physical_card':
      return nonEmpty(event.record.merchantOrderNo);
  }
}

/**
 * The provider's time of an event's record, where the record has one that moves with its state
 * (domain/event-order.ts): an older record retried late loses to a newer one of the same kind,
 * and a review state reached again in a later round is told from the earlier one's
 * (workflows/events/inbox.ts).
 */
export function recordTimeOf(event: ProviderEventBody): number | undefined {
  switch (event.category) {
    case 'card_transaction':
    case 'card_auth_transaction':
    case 'card_3ds':
      return event.record.transactionTime;
    case 'card_fee_patch':
      return event.record.transactionTime ?? undefined;
    case 'work':
    case 'wallet_transaction_v2':
    case 'card_holder':
      return event.record.updateTime;
    default:
      return undefined;
  }
}

/**
 * `category|id|state`, e.g. `card_transaction|CF3a…|success`; with `round`, that state in one
 * review round after the first (`card_holder|19|reject|round 1`), for a state a record can reach
 * again (a cardholder rejected, resubmitted and rejected once more).
 */
export function recordStateKey(category: string, id: string, status: string, round?: number): string {
  return round === undefined ? `${category}|${id}|${status}` : `${category}|${id}|${status}|round ${round}`;
}

/** The state key of an event, or undefined when the record carries no id or state. */
export function providerEventKey(event: ProviderEventBody): string | undefined {
  const id = recordIdOf(event);
  const state = recordStateOf(event);
  return id && state ? recordStateKey(event.category, id, state) : undefined;
}

/**
 * The key workflows started before work orders and 3DS records were keyed by their own state
 * fields gave an event: those two had none (their records carry no `status`), so those workflows
 * kept no such event and waited for their probes instead. They must replay that way.
 */
export function keyBeforeStateFields(event: ProviderEventBody): string | undefined {
  return event.category === 'work' || event.category === 'card_3ds' ? undefined : providerEventKey(event);
}

/**
 * The card-level path: every event that names a card reaches that card's workflow by its derived
 * id (`card-<cardNo>`, no lookup). The card's own events (authorizations, fees, 3DS, activation,
 * and the operations the provider starts) go by signal-with-start, so the first event of a card
 * nobody follows starts its workflow, which then catches up. Operations a merchant sends have a
 * sender that follows them, so a card made elsewhere is not started from those alone. A cancelled
 * card's workflow has completed and is never started again (ALLOW_DUPLICATE_FAILED_ONLY).
 */
import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { cardEntityStartOptions } from '../client/card-entity';
import { cardEntityInputFor, type CardEntityStartContext } from '../domain/card-entity-start';
import { cardNoField } from '../domain/fields';
import {
  cardNoOf,
  PROVIDER_CARD_OPERATIONS,
  providerEventSignal,
  type ProviderEvent,
  type ProviderEventBody,
} from '../domain/provider-event';
import { cardEntityWorkflow } from '../domain/workflows';
import type { EventForwarder } from './forwarder';
import { routeEvent } from './routing';

/** Where a card-level event goes: the card, and whether it may start the card's workflow. */
export interface CardDelivery {
  cardNo: string;
  start: boolean;
}

/**
 * The card-level delivery of an event, or undefined for an event that names no (well-formed) card.
 */
export function cardDelivery(event: ProviderEventBody): CardDelivery | undefined {
  const cardNo = cardNoOf(event);
  if (!cardNo || !cardNoField.safeParse(cardNo).success) return undefined;
  switch (event.category) {
    case 'card_auth_transaction':
    case 'card_fee_patch':
    case 'card_3ds':
      return { cardNo, start: true };
    case 'card_transaction':
      return { cardNo, start: PROVIDER_CARD_OPERATIONS.includes(event.record.type) };
    // An activation's result moves the card out of un_activated, which no operation record says.
    case 'physical_card':
      return { cardNo, start: true };
    default:
      return undefined;
  }
}

/**
 * Delivers an event to its card's workflow; resolves with the workflow id, or undefined when it did
 * not reach one.
 */
export interface CardEntityDelivery {
  deliver(event: ProviderEvent, delivery: CardDelivery): Promise<string | undefined>;
}

export interface CardEntityDeliveryOptions {
  /** The cardflow worker's task queue, where a started card workflow runs. */
  taskQueue: string;
  /**
   * What a card workflow this delivery starts is given beyond its card number (e.g. a test's wait
   * profile).
   */
  input?: CardEntityStartContext;
}

export function createCardEntityDelivery(client: Client, opts: CardEntityDeliveryOptions): CardEntityDelivery {
  return {
    async deliver(event, { cardNo, start }) {
      const workflowId = cardEntityWorkflow.id(cardNo);
      try {
        if (start) {
          const { args, ...options } = cardEntityStartOptions(cardEntityInputFor(cardNo, opts.input), opts.taskQueue);
          await client.workflow.signalWithStart(cardEntityWorkflow.type, {
            ...options,
            args,
            signal: providerEventSignal,
            signalArgs: [event],
          });
        } else {
          await client.workflow.getHandle(workflowId).signal(providerEventSignal, event);
        }
        return workflowId;
      } catch (error) {
        // Not running and not to be started, or completed (the card is cancelled).
        if (error instanceof WorkflowNotFoundError || error instanceof WorkflowExecutionAlreadyStartedError)
          return undefined;
        throw error;
      }
    },
  };
}

/**
 * Delivers an event to every workflow it concerns, as the receiver does and reconciliation's
 * re-delivery does again: the card's workflow, by its derived id (signal-with-start for the
 * card's own events), and the other owners `routeEvent` finds. The two go out together: they are
 * different workflows, each keyed on the event's identity, so neither waits for the other's
 * round trip, and a failure of either fails the delivery, which the provider sends again (a
 * workflow that already had it ignores the repeat). Resolves with the ids signalled, the card's
 * first.
 */
export async function deliverToOwners(
  event: ProviderEvent,
  route: { cardEntities?: CardEntityDelivery | undefined; forwarder: EventForwarder },
): Promise<string[]> {
  const toCard = route.cardEntities ? cardDelivery(event) : undefined;
  const [card, others] = await Promise.all([
    toCard ? route.cardEntities?.deliver(event, toCard) : undefined,
    route.forwarder.forward(event, routeEvent(event)),
  ]);
  return card ? [card, ...others.filter((id) => id !== card)] : others;
}

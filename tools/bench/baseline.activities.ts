/**
 * The baselines' activities: a no-op, what a provider call costs Temporal without the provider,
 * and a no-op whose answer comes back later as a signal, the way a provider's webhook reaches a
 * workflow through the receiver's forwarder (the route the activity recorded before its call,
 * read back, then a signal), without the receiver's own work (signature, parsing, delivery log);
 * the card child's also starts the card's workflow, as createCard does, and signals it the answer.
 */
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { providerEventSignal, type ProviderEvent } from '../../domain/provider-event';
import { CardflowCardNo } from '../../domain/search-attributes';
import { createRouteForwarder } from '../../webhooks/forwarder';
import { routeEvent } from '../../webhooks/routing';
import { type RouteStore, routeKey } from '../../platform/storage/route-store';

export async function noop(_input: { step: number }): Promise<void> {}

/** What an answer carries: a cardholder's approval, as the provider's card_holder webhook does. */
function answerFor(key: string): ProviderEvent {
  return {
    category: 'card_holder',
    requestId: `baseline-${key}`,
    record: {
      holderId: '1000000000000000001',
      merchantOrderNo: key,
      cardTypeId: '1000000000000000002',
      statusFlowLocation: 'channel',
      status: 'pass_audit',
    },
  };
}

/**
 * The card workflow of the baseline whose answer `key` is, by an id derived from it (as
 * `card-<cardNo>` is).
 */
const cardWorkflowId = (key: string) => `baseline-card-${key}`;

/** The baseline worker's activities; `client` sends the answers, looked up in `routes`. */
export function baselineActivities(client: Client, routes: RouteStore) {
  // The receiver's own routing and forwarder: the same route lookups and signal, over the route
  // store the activities record in (platform/storage/route-store.ts).
  const forwarder = createRouteForwarder(client, { routes });
  const forward = async (event: ProviderEvent) => {
    const owners = await forwarder.forward(event, routeEvent(event));
    if (owners.length === 0) throw new Error(`no running baseline workflow for answer ${event.requestId}`);
  };
  return {
    noop,
    /**
     * Completes at once; its answer is signalled right after, as a webhook follows a provider call:
     * to the workflow whose route it recorded for `key` first (as cardflow's activities do before
     * their call), or, with `lookup: false`, straight to the workflow that called.
     */
    async noopAnswered(input: { key: string; lookup: boolean; startsCard?: boolean }): Promise<void> {
      const { info } = Context.current();
      const caller = info.workflowExecution?.workflowId;
      // As createCard starts the card's workflow once it has made the card.
      if (input.startsCard)
        await client.workflow.start('baselineCardWorkflow', {
          taskQueue: info.taskQueue,
          workflowId: cardWorkflowId(input.key),
          workflowIdConflictPolicy: 'USE_EXISTING',
          typedSearchAttributes: [{ key: CardflowCardNo, value: input.key }],
        });
      if (input.lookup && caller !== undefined) await routes.record(routeKey('order', input.key), caller);
      const event = answerFor(input.key);
      setImmediate(() => {
        const toCaller =
          input.lookup || caller === undefined
            ? forward(event)
            : client.workflow.getHandle(caller).signal(providerEventSignal, event);
        // A card's event also goes to the card's own workflow, together with the routed owner, as
        // the receiver sends it (webhooks/card-route.ts).
        const toCard = input.startsCard
          ? client.workflow.getHandle(cardWorkflowId(input.key)).signal(providerEventSignal, event)
          : undefined;
        Promise.all([toCaller, toCard]).catch((error: unknown) => console.error('baseline answer failed:', error));
      });
    },
  };
}

export type BaselineActivities = ReturnType<typeof baselineActivities>;

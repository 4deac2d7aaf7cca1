/**
 * How the receiver hands a card's event to the workflows it concerns (webhooks/card-route.ts):
 * the card's own workflow and the routed owners are signalled together, so a delivery waits for
 * the slower of the two round trips, not their sum.
 */
import type { ProviderEvent } from '../../../domain/provider-event';
import { type CardEntityDelivery, deliverToOwners } from '../../../webhooks/card-route';
import type { EventForwarder } from '../../../webhooks/forwarder';
import { authorizationRecord, providerEvent } from '../../fixtures/provider-events';

const event = (): ProviderEvent => ({
  ...providerEvent('card_auth_transaction', authorizationRecord({ cardNo: 'C9', tradeNo: 'A1' })),
  requestId: 'req-1',
});

/** A promise and the function that settles it. */
function gate<T>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

it("signals the card's workflow and the routed owners together, the card's id first", async () => {
  const forwarderCalled = gate<void>();
  // The card's signal is answered only once the routed owners were asked: one after the other, this
  // never settles.
  const cardEntities: CardEntityDelivery = {
    deliver: async (_event, delivery) => {
      await forwarderCalled.promise;
      return `card-${delivery.cardNo}`;
    },
  };
  const forwarder: EventForwarder = {
    forward: async () => {
      forwarderCalled.open();
      return ['card-C9', 'onboarding-1/card'];
    },
  };
  await expect(deliverToOwners(event(), { cardEntities, forwarder })).resolves.toEqual([
    'card-C9',
    'onboarding-1/card',
  ]);
});

it('fails the delivery when either signal fails, so the provider sends it again', async () => {
  const cardEntities: CardEntityDelivery = { deliver: async () => Promise.reject(new Error('frontend unavailable')) };
  const forwarder: EventForwarder = { forward: async () => ['onboarding-1/card'] };
  await expect(deliverToOwners(event(), { cardEntities, forwarder })).rejects.toThrow('frontend unavailable');
  const failingForwarder: EventForwarder = { forward: async () => Promise.reject(new Error('route store down')) };
  const card: CardEntityDelivery = { deliver: async () => 'card-C9' };
  await expect(deliverToOwners(event(), { cardEntities: card, forwarder: failingForwarder })).rejects.toThrow(
    'route store down',
  );
});

it('routes to the owners alone when no card workflow is reachable', async () => {
  const forwarder: EventForwarder = { forward: async () => ['onboarding-1/card'] };
  await expect(deliverToOwners(event(), { forwarder })).resolves.toEqual(['onboarding-1/card']);
});

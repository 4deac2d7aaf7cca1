/**
 * A signalled webhook's latencies as the bench reports them (c): from its receipt to its signal
 * accepted by every owner (what a workflow waits for), and to its acknowledgement (the signal,
 * then the delivery log's write and sync, which the provider waits for); and, to tell where the
 * time goes, to the request read and verified, before any route lookup or signal.
 */
import type { HandledWebhook } from '../../webhooks/receiver';

export interface DeliveryLatency {
  /** ms from receipt to the request read and its signature verified: the receiver's own part. */
  verified: number;
  /** ms from receipt to the signal accepted. */
  signalled: number;
  /** ms from receipt to the answer, after the delivery log's sync. */
  acknowledged: number;
}

/**
 * What the receiver did since it was last asked: the signalled deliveries' latencies, and every
 * delivery's outcome counted.
 */
export interface DeliveriesSeen {
  latencies: DeliveryLatency[];
  /** Deliveries by outcome (`signalled`, `not_forwarded`, `duplicate`, ...). */
  outcomes: Record<string, number>;
}

/** Nothing seen yet. */
export function noDeliveries(): DeliveriesSeen {
  return { latencies: [], outcomes: {} };
}

/** Adds a handled delivery to `seen`. */
export function countDelivery(seen: DeliveriesSeen, handled: HandledWebhook): void {
  seen.outcomes[handled.outcome] = (seen.outcomes[handled.outcome] ?? 0) + 1;
  const latency = deliveryLatency(handled);
  if (latency) seen.latencies.push(latency);
}

/** Adds what `from` saw to `into`: its latencies, its outcomes' counts. */
export function addDeliveries(into: DeliveriesSeen, from: DeliveriesSeen): void {
  into.latencies.push(...from.latencies);
  for (const [outcome, count] of Object.entries(from.outcomes))
    into.outcomes[outcome] = (into.outcomes[outcome] ?? 0) + count;
}

/** Takes what `seen` holds, leaving it empty. */
export function takeDeliveries(seen: DeliveriesSeen): DeliveriesSeen {
  const taken = { latencies: seen.latencies.splice(0), outcomes: { ...seen.outcomes } };
  for (const outcome of Object.keys(seen.outcomes)) delete seen.outcomes[outcome];
  return taken;
}

/** The latencies of a delivery that was signalled; undefined for any other outcome. */
function deliveryLatency(handled: HandledWebhook): DeliveryLatency | undefined {
  if (handled.outcome !== 'signalled') return undefined;
  return {
    verified: handled.verifiedAtMs - handled.receivedAtMs,
    signalled: (handled.signalledAtMs ?? handled.settledAtMs) - handled.receivedAtMs,
    acknowledged: handled.settledAtMs - handled.receivedAtMs,
  };
}

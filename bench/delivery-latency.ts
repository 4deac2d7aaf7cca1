/**
 * A signalled webhook's latencies as the bench reports them (c): from its receipt to its signal
 * accepted by every owner (what a workflow waits for), and to its acknowledgement (the signal,
 * then the delivery log's write and sync, which the provider waits for).
 */
import type { HandledWebhook } from '../webhooks/receiver';

export interface DeliveryLatency {
  /** ms from receipt to the signal accepted. */
  signalled: number;
  /** ms from receipt to the answer, after the delivery log's sync. */
  acknowledged: number;
}

/** The latencies of a delivery that was signalled; undefined for any other outcome. */
export function deliveryLatency(handled: HandledWebhook): DeliveryLatency | undefined {
  if (handled.outcome !== 'signalled') return undefined;
  return {
    signalled: (handled.signalledAtMs ?? handled.settledAtMs) - handled.receivedAtMs,
    acknowledged: handled.settledAtMs - handled.receivedAtMs,
  };
}

/**
 * What reconciliation needs of Temporal itself, as a port the worker fills (workers/reconciliation-port.ts):
 * who owns an order (visibility on CardflowOrderNos), the re-delivery of a missed event through the
 * webhook receiver's own forwarder, what running workflows are about to spend, and where the last
 * run ended. Activities reach Temporal only through it, so the rules stay testable without a server.
 */
import type { OwnerRun } from '../domain/reconciliation-rules';
import type { ProviderEvent } from '../domain/provider-event';

export interface ReconcilePort {
  /** Every execution listing each of `orderNos` in CardflowOrderNos, any status (at most 100 per call). */
  ownersOf(orderNos: readonly string[]): Promise<Record<string, OwnerRun[]>>;
  /** Signals the event to its running owners exactly as the webhook receiver would; resolves with the ids signalled. */
  redeliver(event: ProviderEvent): Promise<string[]>;
  /**
   * Per paying account (`''` for the merchant WALLET by default): what the running workflows of
   * `taskQueue` (one cardflow deployment) are about to spend.
   */
  pendingCommitments(taskQueue: string): Promise<Record<string, string>>;
  /** The window end of the latest completed reconciliation run on `taskQueue`, if any. */
  previousWindowEnd(taskQueue: string): Promise<number | undefined>;
}

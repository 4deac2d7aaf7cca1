/**
 * What reconciliation needs of Temporal itself, as a port the worker fills
 * (workers/reconciliation-temporal.ts): who owns an order (visibility on CardflowOrderNos), the
 * re-delivery of a missed event through the webhook receiver's own forwarder, what running
 * workflows are about to spend, the money failed processes left at the provider, and where the last
 * run ended. Activities reach Temporal only through it, so the rules stay testable without a
 * server.
 */
import type { OwnerRun } from '../../domain/reconciliation-rules';
import type { ProviderEvent } from '../../domain/provider-event';
import type { StrandedMoneyInput } from '../../domain/stranded-money';

/** A running workflow that will take `amount` from `accountId` (undefined: the merchant WALLET). */
export interface RunningSpender {
  workflowId: string;
  workflowType: string;
  amount: string;
  accountId?: string;
  /** An onboarding whose card child has started already spends through that child. */
  spendsThroughChild?: boolean;
}

/** An open `strandedMoney` record and what it names. */
export interface OpenStrandedRecord {
  workflowId: string;
  input: StrandedMoneyInput;
}

export interface ReconcilePort {
  /**
   * Every execution listing each of `orderNos` in CardflowOrderNos, any status (at most 100 per
   * call).
   */
  ownersOf(orderNos: readonly string[]): Promise<Record<string, OwnerRun[]>>;
  /**
   * Delivers the event exactly as the webhook receiver would: to its card's workflow (started when
   * the event is the card's own), then its running owners; resolves with the ids signalled.
   */
  redeliver(event: ProviderEvent): Promise<string[]>;
  /**
   * Delivers a card's own event to the card's workflow with signal-with-start: its id, and whether
   * it was not running before (this started it); undefined when the workflow has ended (the card is
   * cancelled).
   */
  deliverToCard(event: ProviderEvent): Promise<{ workflowId: string; started: boolean } | undefined>;
  /**
   * The running workflows of `taskQueue` (one cardflow deployment) that spend money, with what
   * their input says they will take and from which account; whether they already did is the
   * activity's to find out at the provider.
   */
  runningSpenders(taskQueue: string): Promise<RunningSpender[]>;
  /** The `strandedMoney` records of `taskQueue` still waiting for an operator's acknowledgement. */
  openStrandedRecords(taskQueue: string): Promise<OpenStrandedRecord[]>;
  /**
   * The window end of the latest completed reconciliation run on `taskQueue` not given its own
   * start, if any.
   */
  previousWindowEnd(taskQueue: string): Promise<number | undefined>;
}

/**
 * A provider webhook, as the receiver forwards it to the workflow that owns it.
 *
 * The receiver verifies the signature, drops repeats of the same `X-WSB-REQUEST-ID`, parses
 * the body with the category's schema (so decimals and ids are strings, JSON-safe for Temporal
 * payloads) and signals the owning workflow. Delivery is at least once and unordered
 * (provider-notes, Webhooks): workflows key their handling on the record's identity and
 * status, never on the request id alone.
 */
import { defineSignal } from '@temporalio/workflow';

export interface ProviderEvent {
  /** `X-WSB-CATEGORY`, e.g. `card_transaction`, `card_holder`, `wallet_transaction_v2`. */
  category: string;
  /** `X-WSB-REQUEST-ID` of the delivery. */
  requestId: string;
  /** The body, parsed with the category's record schema (program types: decimal and id strings). */
  record: Record<string, unknown>;
}

export const providerEventSignal = defineSignal<[ProviderEvent]>('providerEvent');

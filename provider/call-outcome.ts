/**
 * How one provider call ended, in the terms operators watch (metrics, traces): the outcome of a
 * call once it was sent, never its contents.
 */
import { ProviderAbortedError, ProviderBusinessError, ProviderServerError, ProviderTransportError } from './errors';

/**
 * - `ok`: the provider answered success;
 * - `refused`: it answered a business failure (insufficient balance, bad state...): it decided;
 * - `ambiguous`: no decision known (transport error, timeout, 5xx): the call may have gone through,
 *   so a mutation is looked up before anything is sent again (activities/idempotent.ts);
 * - `aborted`: the caller gave up (activity cancelled);
 * - `failed`: anything else (signature or shape of the answer wrong).
 */
export type ProviderCallOutcome = 'ok' | 'refused' | 'ambiguous' | 'aborted' | 'failed';

/** One provider call as a client's `onCall` hook receives it. */
export interface ProviderCallRecord {
  /** The operation's method name (provider/operations.ts): a bounded set. */
  operation: string;
  outcome: ProviderCallOutcome;
  /** Wall time from sending to the interpreted answer. */
  seconds: number;
}

/** The outcome of a call that threw `error`. */
export function callOutcomeOf(error: unknown): ProviderCallOutcome {
  if (error instanceof ProviderAbortedError) return 'aborted';
  if (error instanceof ProviderServerError) return 'ambiguous';
  if (error instanceof ProviderTransportError) return error.retryable ? 'ambiguous' : 'failed';
  if (error instanceof ProviderBusinessError) return 'refused';
  return 'failed';
}

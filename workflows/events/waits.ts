/**
 * Waiting for provider states: webhooks first, polling as the fallback, at a cost that does not
 * grow with the wait. A card operation still pending after its activity's settle time gets a
 * short timer for the webhook, then one long-poll activity races the signal; a review (minutes to
 * days) is raced by one long-poll activity whose retry policy spaces its probes
 * (domain/wait-profile.ts). The loser is cancelled; no loop of timers runs in workflow code.
 */
import { type ApplicationFailure, CancellationScope, condition } from '@temporalio/workflow';
import type { CardholderReview, CardOperation } from '../../activities/types';
import { FailureTypes } from '../../domain/failure-types';
import type { WaitProfile } from '../../domain/wait-profile';
import { nonRetryable } from '../../domain/failures';
import type { EventInbox } from './inbox';
import { longPollCalls, pollSettings } from '../calls/profiles';
import { isFinalOperationStatus } from '../../provider/rules';

/** Races `poll()` against `fromSignal()` becoming defined; cancels the loser. */
export async function raceSignalAndPoll<T>(fromSignal: () => T | undefined, poll: () => Promise<T>): Promise<T> {
  const scope = new CancellationScope();
  // Captured when the condition holds: a later event in the same activation cannot change it.
  let signalled: T | undefined;
  try {
    return await scope.run(() =>
      Promise.race([poll(), condition(() => (signalled = fromSignal()) !== undefined).then(() => signalled as T)]),
    );
  } finally {
    scope.cancel();
  }
}

/** What a workflow waiting for a card operation is told of it. */
export interface CardOperationReport {
  /**
   * The operation's final record, however it was learned (its webhook, a poll, the send's answer).
   */
  record?: ((operation: CardOperation) => void) | undefined;
  /** How the workflow fails (its tracker's `fail`); default: the failure is thrown. */
  fail?: (failure: ApplicationFailure) => never;
}

/**
 * The operation of `initial.merchantOrderNo` once it succeeded. A `fail` record becomes
 * OperationFailed naming `what` (`deposit CF…`) and the provider's description.
 */
export async function waitForCardOperationSuccess(
  inbox: EventInbox,
  initial: CardOperation,
  profile: WaitProfile,
  what: string,
  report: CardOperationReport = {},
): Promise<CardOperation> {
  const operation = await waitForCardOperation(inbox, initial, profile);
  report.record?.(operation);
  if (operation.status === 'fail') {
    const failure = nonRetryable(
      FailureTypes.operationFailed,
      `${what} failed: ${operation.description ?? 'no description'}`,
    );
    if (report.fail) report.fail(failure);
    throw failure;
  }
  return operation;
}

/** The operation of `initial.merchantOrderNo` in a final status (success or fail). */
async function waitForCardOperation(
  inbox: EventInbox,
  initial: CardOperation,
  profile: WaitProfile,
): Promise<CardOperation> {
  const key = initial.merchantOrderNo;
  inbox.markSeen('card_transaction', key, initial.status);
  if (isFinalOperationStatus(initial.status)) return initial;
  const fromSignal = () => inbox.finalOperation(key);
  if (await condition(() => fromSignal() !== undefined, profile.firstPollMs))
    return merge(initial, fromSignal() as CardOperation);
  const calls = longPollCalls(profile);
  const final = await raceSignalAndPoll(fromSignal, () =>
    calls.awaitCardOperation({ merchantOrderNo: key, poll: pollSettings(profile) }),
  );
  inbox.markSeen('card_transaction', key, final.status);
  return merge(initial, final);
}

/** Keeps fields the final record may omit (e.g. cardNo in a sparse webhook). */
function merge(initial: CardOperation, final: CardOperation): CardOperation {
  return { ...initial, ...final, cardNo: final.cardNo ?? initial.cardNo, orderNo: final.orderNo || initial.orderNo };
}

/**
 * The holder's review once it is `pass_audit` or `reject` (events that arrived before
 * `since` are ignored: a stale reject must not end a resubmitted review). Fails with a
 * timeout once `deadlineMs` from now passes.
 */
export async function waitForReview(
  inbox: EventInbox,
  holderId: string,
  since: number,
  profile: WaitProfile,
  deadlineMs: number,
): Promise<CardholderReview> {
  const fromSignal = () => inbox.finalReviewSince(holderId, since);
  const calls = longPollCalls(profile, deadlineMs);
  const review = await raceSignalAndPoll(fromSignal, () =>
    calls.awaitCardholderReview({ holderId, until: ['pass_audit', 'reject'], poll: pollSettings(profile) }),
  );
  inbox.markSeen('card_holder', holderId, review.status);
  return review;
}

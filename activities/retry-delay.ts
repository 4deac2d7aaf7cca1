/**
 * The backoff of failures an activity reports itself (transport error, 5xx, a duplicate order not
 * found yet), set as its own `nextRetryDelay`, apart from the timeouts the server retries by the
 * policy. With `backoffCoefficient` 1 (the provider call's, workflows/calls/profiles.ts) a starved
 * worker's missed heartbeats never make a call wait longer, while reported failures still double
 * up to the policy's maximum; a policy above 1 (the long polls') is followed as the server would.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure, ApplicationFailureCategory, type RetryPolicy, TemporalFailure } from '@temporalio/common';
import { msOptionalToNumber } from '@temporalio/common/lib/time';

/** How a flat policy's reported failures grow: the doubling the provider call always had. */
export const REPORTED_FAILURE_BACKOFF = 2;

/**
 * The delay before the attempt after `attempt` fails with a failure the activity reports, under
 * `policy` (as the activity sees it); undefined without a policy (leave it to the server).
 */
export function reportedFailureDelayMs(attempt: number, policy: RetryPolicy | undefined): number | undefined {
  const initialMs = msOptionalToNumber(policy?.initialInterval);
  if (!policy || initialMs === undefined) return undefined;
  const coefficient =
    policy.backoffCoefficient !== undefined && policy.backoffCoefficient > 1
      ? policy.backoffCoefficient
      : REPORTED_FAILURE_BACKOFF;
  const maximumMs = msOptionalToNumber(policy.maximumInterval) ?? 100 * initialMs;
  // Attempts count from 1, those cut by a timeout included: a provider failure after starved
  // attempts waits as if they had failed too, never more than the maximum. What no longer grows
  // is the wait after each timeout itself.
  return Math.min(initialMs * coefficient ** Math.max(0, attempt - 1), maximumMs);
}

/**
 * `failure` with the delay of {@link reportedFailureDelayMs} when it is to be retried: not a
 * non-retryable failure, not one that sets its own delay or is benign (a long poll's "still
 * waiting"), not a cancellation, and only inside an activity (a unit test calling the function
 * gets the failure as it was).
 */
export function withReportedBackoff(failure: Error): Error {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return failure;
  }
  if (context.cancellationSignal.aborted) return failure;
  if (failure instanceof ApplicationFailure) {
    if (failure.nonRetryable || failure.nextRetryDelay != null) return failure;
    if (failure.category === ApplicationFailureCategory.BENIGN) return failure;
  } else if (failure instanceof TemporalFailure) {
    return failure;
  }
  const delayMs = reportedFailureDelayMs(context.info.attempt, context.info.retryPolicy);
  return delayMs === undefined ? failure : ApplicationFailure.fromError(failure, { nextRetryDelay: delayMs });
}

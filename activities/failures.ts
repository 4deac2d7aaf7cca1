/**
 * Provider failures as Temporal failures. An error crossing the activity boundary is an
 * `ApplicationFailure` with the provider error's stable `type` (provider/errors.ts) and
 * `nonRetryable` when retrying cannot help (validation, business rejection, bad signature);
 * transport errors, timeouts and 5xx stay retryable and back off (activities/retry-delay.ts: set
 * by the activity, so a heartbeat timeout does not make the next provider failure wait longer).
 * Details carry codes and ids only, never the envelope (it may hold personal data). cardflow's
 * own failures (nonRetryable, retryable, stillWaiting) come from domain/failures.ts, shared with
 * the workflows.
 */
import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import { FailureTypes } from '../domain/failure-types';
import {
  ProviderAbortedError,
  ProviderBusinessError,
  ProviderError,
  ProviderServerError,
  ProviderTransportError,
} from '../provider/errors';
import { withReportedBackoff } from './retry-delay';

/** The outcome is unknown: the call may have reached the provider (transport, timeout, 5xx). */
export function isAmbiguous(error: unknown): boolean {
  return (error instanceof ProviderTransportError && error.retryable) || error instanceof ProviderServerError;
}

/** The provider said the merchantOrderNo was already used: an earlier attempt went through. */
export function isDuplicateOrder(error: unknown): boolean {
  return (error instanceof ProviderBusinessError || error instanceof ProviderServerError) && error.isDuplicateOrder;
}

/**
 * Converts any error into the failure to throw from an activity. A provider call cut short by the
 * activity's own cancellation signal stays retryable here, though the HTTP layer does not retry
 * it: when the workflow cancelled the activity no attempt follows anyway, and when the worker shut
 * down under it the next attempt, on another worker, looks the order up before sending
 * (idempotent.ts), so a deploy never fails the step. Any other error becomes a retryable
 * `Unexpected`, so no type outside the registry crosses the boundary; a cancellation (a Temporal
 * failure, or the abort of the activity's own signal) stays as it is, for the SDK to report.
 */
export function toActivityFailure(error: unknown): Error {
  if (error instanceof TemporalFailure || (error instanceof Error && error.name === 'AbortError')) return error;
  if (error instanceof ProviderError) {
    const code =
      error instanceof ProviderBusinessError || error instanceof ProviderServerError ? error.code : undefined;
    return ApplicationFailure.create({
      type: error.type,
      message: error.message,
      nonRetryable: !error.retryable && !(error instanceof ProviderAbortedError),
      details: [
        { code, httpStatus: error.httpStatus, requestId: error.requestId, merchantOrderNo: error.merchantOrderNo },
      ],
    });
  }
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const failure = ApplicationFailure.create({ type: FailureTypes.unexpected, message: `${name}: ${message}` });
  // The original stack, where the error was raised, not where it was converted.
  if (error instanceof Error && error.stack) failure.stack = error.stack;
  return failure;
}

/**
 * The activities of a factory, each converting whatever it throws with {@link toActivityFailure}:
 * the one place a provider error becomes an `ApplicationFailure` with its type and retryability,
 * and a retryable one gets its backoff (activities/retry-delay.ts).
 */
export function convertingFailures<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T {
  const converted: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(activities)) {
    converted[name] = async (...args: never[]) => {
      try {
        return await run(...args);
      } catch (error) {
        throw withReportedBackoff(toActivityFailure(error));
      }
    };
  }
  return converted as T;
}

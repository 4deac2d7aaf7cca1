/**
 * cardflow's one failure vocabulary, for workflows and activities alike. Every failure is an
 * `ApplicationFailure` with a type from domain/failure-types.ts, which clients, histories and
 * backends match on (never a message or class); provider errors convert in activities/failures.ts.
 * - {@link nonRetryable}: the same request meets the same answer; names each field and rule;
 * - {@link retryable}: the answer may change; {@link stillWaiting}: not reached yet, not an error;
 * - {@link summarize}, {@link propagate}, {@link rethrown}: a step's failure read as its root
 *   type and message, and raised again as the caller's own.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  ApplicationFailureCategory,
  ChildWorkflowFailure,
  TimeoutFailure,
} from '@temporalio/common';
import { describeIssues, type FieldIssue } from './cardholder-data';
import { FailureTypes, type FailureType } from './failure-types';
import type { FailureSummary } from './summaries';

/**
 * A failure for good of a registered type. `reason` is its message, or the field issues it
 * refuses the request for: the message then names each field and rule, and the issues go along as
 * the failure's details for a client to read.
 */
export function nonRetryable(type: FailureType, reason: string | readonly FieldIssue[]): ApplicationFailure {
  return typeof reason === 'string'
    ? ApplicationFailure.create({ type, message: reason, nonRetryable: true })
    : rethrown({ type, message: describeIssues(reason) }, reason);
}

/** A failure of a registered type that the retry policy retries (the answer may change). */
export function retryable(type: FailureType, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: false });
}

/** Not there yet: retry later (benign, so it is not logged as an error). */
export function stillWaiting(message: string, nextRetryDelayMs?: number): ApplicationFailure {
  return ApplicationFailure.create({
    type: FailureTypes.stillWaiting,
    message,
    nonRetryable: false,
    category: ApplicationFailureCategory.BENIGN,
    ...(nextRetryDelayMs === undefined ? {} : { nextRetryDelay: nextRetryDelayMs }),
  });
}

/**
 * A failure seen in a step raised again, for good, as this workflow's own: its type (whatever
 * raised it, the provider client included), a message, and the root failure's details if any.
 */
export function rethrown(summary: FailureSummary, details?: unknown): ApplicationFailure {
  return ApplicationFailure.create({
    type: summary.type,
    message: summary.message,
    nonRetryable: true,
    ...(details === undefined ? {} : { details: [details] }),
  });
}

/** The innermost ApplicationFailure (through activity and child workflow wrappers), if any. */
export function rootApplicationFailure(error: unknown): ApplicationFailure | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (current instanceof ApplicationFailure) return current;
    if (current instanceof ActivityFailure || current instanceof ChildWorkflowFailure) current = current.cause;
    else return undefined;
  }
  return undefined;
}

/**
 * A wait activity ran out of time: its schedule-to-close deadline cut an attempt (TimeoutFailure),
 * or the server declined a retry that would start past that deadline and closed the activity with
 * the last attempt's StillWaiting (retryable, so it reaches a workflow only this way).
 */
export function isTimeout(error: unknown): boolean {
  if (!(error instanceof ActivityFailure)) return false;
  return (
    error.cause instanceof TimeoutFailure ||
    (error.cause instanceof ApplicationFailure && error.cause.type === FailureTypes.stillWaiting)
  );
}

/** A summary for progress queries, and a failure to rethrow that keeps the root type. */
export function summarize(error: unknown): FailureSummary {
  const root = rootApplicationFailure(error);
  if (root) return { type: root.type ?? 'Error', message: root.message };
  return {
    type: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * Re-raises a child's or activity's failure as this workflow's own, with the same type and message
 * (`hint`, what an operator can do about it, appended in parentheses).
 */
export function propagate(error: unknown, hint?: string): never {
  const root = rootApplicationFailure(error);
  if (root)
    throw rethrown(
      { type: root.type ?? 'Error', message: hint ? `${root.message} (${hint})` : root.message },
      root.details?.[0],
    );
  throw error;
}

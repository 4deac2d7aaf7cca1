/** Workflow-side failures: every failure a workflow ends with is an ApplicationFailure with an explicit type. */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, TimeoutFailure } from '@temporalio/workflow';
import { describeIssues, type FieldIssue } from '../../domain/cardholder-data';
import { FailureTypes } from '../../domain/failure-types';
import type { FailureSummary } from '../../domain/summaries';

export function failWith(type: string, message: string, details?: unknown): ApplicationFailure {
  return ApplicationFailure.create({
    type,
    message,
    nonRetryable: true,
    ...(details === undefined ? {} : { details: [details] }),
  });
}

export function failIssues(type: string, issues: readonly FieldIssue[]): ApplicationFailure {
  return failWith(type, describeIssues(issues), issues);
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
  if (root) throw failWith(root.type ?? 'Error', hint ? `${root.message} (${hint})` : root.message, root.details?.[0]);
  throw error;
}

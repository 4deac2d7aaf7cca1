/**
 * Timeout and retry profiles of the activities, as named constants, and
 * the proxies built from them. Workflows see the activities as types only.
 */
import { proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { CardflowActivities } from '../../activities';
import { ProviderErrorTypes } from '../../provider/error-types';
import { FailureTypes, type KnownFailureType } from '../../domain/failure-types';
import { probeTaskQueue } from '../../domain/task-queue';
import { CARD_OPERATION_WAIT, REVIEW_WAIT, type WaitOverrides, type WaitProfile } from '../../domain/wait-profile';

/** Failures that repeat identically on retry (provider client types and ours). */
export const NON_RETRYABLE_TYPES: KnownFailureType[] = [
  ProviderErrorTypes.validation,
  ProviderErrorTypes.signature,
  ProviderErrorTypes.response,
  FailureTypes.invalidInput,
  FailureTypes.notEligible,
  FailureTypes.insufficientBalance,
  FailureTypes.cardTypeNotFound,
];

/**
 * One provider call (plus its lookups after an ambiguous outcome). The activity heartbeats while
 * it runs (activities/heartbeats.ts), so a call in flight on a killed worker is retried after the
 * 3 s heartbeat timeout; start-to-close bounds a live attempt's three requests (lookup, send,
 * lookup) of 15 s each. The backoff (0.5 s doubling to 1 min) is set by the activity on each
 * failure it reports (activities/retry-delay.ts); the policy's coefficient of 1 retries a missed
 * heartbeat after 0.5 s every time. Asking again early is safe: every attempt is keyed on its
 * merchantOrderNo. Every timeout and its reason: docs/timeouts.md.
 */
export const PROVIDER_CALL: ActivityOptions = {
  startToCloseTimeout: '60s',
  heartbeatTimeout: '3s',
  retry: {
    initialInterval: '500ms',
    backoffCoefficient: 1,
    maximumInterval: '1m',
    maximumAttempts: 20,
    nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
  },
};

const providerCalls = proxyActivities<CardflowActivities>(PROVIDER_CALL);

/** The activities as a workflow calls them for one provider call each. */
export type ProviderCalls = typeof providerCalls;

/**
 * The provider-call proxy of a workflow: {@link PROVIDER_CALL}, or its retry shortened or
 * lengthened by the input's `wait.providerRetry` (a test of an outage, a merchant who prefers a
 * step to wait longer for the provider before an operator is asked to resume it).
 */
export function providerCallsFor(wait: WaitOverrides | undefined): ProviderCalls {
  const retry = wait?.providerRetry;
  if (!retry) return providerCalls;
  return proxyActivities<CardflowActivities>({
    ...PROVIDER_CALL,
    retry: {
      ...PROVIDER_CALL.retry,
      ...(retry.maximumAttempts === undefined ? {} : { maximumAttempts: retry.maximumAttempts }),
      ...(retry.initialIntervalMs === undefined ? {} : { initialInterval: retry.initialIntervalMs }),
      ...(retry.maximumIntervalMs === undefined ? {} : { maximumInterval: retry.maximumIntervalMs }),
    },
  });
}

/**
 * A wait profile with overrides applied. Polls may be further apart than the heartbeat timeout:
 * the long-poll activity heartbeats through its sleeps (activities/heartbeats.ts).
 */
export function resolveWait(base: WaitProfile, override: Partial<WaitProfile> | undefined): WaitProfile {
  return { ...base, ...override };
}

export function cardOperationWait(overrides: WaitOverrides | undefined): WaitProfile {
  return resolveWait(CARD_OPERATION_WAIT, overrides?.cardOperation);
}

export function reviewWait(overrides: WaitOverrides | undefined): WaitProfile {
  return resolveWait(REVIEW_WAIT, overrides?.review);
}

/**
 * The longest the work of one probe takes on a live worker besides the attempt's own polling:
 * five asks (a first one and the re-probes of REPROBE_DELAYS_MS, 30 s of pauses) of at most one
 * HTTP timeout (15 s) each, rounded up. A dead worker is noticed by the heartbeat timeout instead.
 */
export const PROBE_WORK_MS = 2 * 60_000;

/**
 * The long-poll activity's options: each attempt polls for up to `attemptMs` with heartbeats, then
 * the retry policy spaces attempts (benign StillWaiting failures) without an attempt limit, until
 * `scheduleToCloseMs` (a deadline) when given. Probes run on the probe queue beside the workflow's
 * own (domain/task-queue.ts), whose rate the worker caps. (Replay compares an activity's type and
 * id, not its queue: runs that began with probes on the main queue replay.)
 */
export function longPollCalls(profile: WaitProfile, scheduleToCloseMs?: number) {
  return proxyActivities<CardflowActivities>({
    taskQueue: probeTaskQueue(workflowInfo().taskQueue),
    startToCloseTimeout: profile.attemptMs + PROBE_WORK_MS,
    heartbeatTimeout: profile.heartbeatTimeoutMs,
    ...(scheduleToCloseMs === undefined ? {} : { scheduleToCloseTimeout: Math.max(1, scheduleToCloseMs) }),
    retry: {
      initialInterval: profile.retryInitialIntervalMs,
      backoffCoefficient: profile.retryBackoff ?? 2,
      maximumInterval: profile.retryMaxIntervalMs,
      nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
    },
  });
}

/** The poll settings the long-poll activity takes from a profile. */
export function pollSettings(profile: WaitProfile) {
  return {
    firstPollMs: profile.firstPollMs,
    maxPollMs: profile.maxPollMs,
    backoff: profile.backoff,
    attemptMs: profile.attemptMs,
  };
}

/**
 * How a workflow waits for a provider state (card operation success, cardholder review): a
 * webhook signal first, and in parallel one long-poll activity that polls the provider with
 * backoff, heartbeating while it goes on polling. An attempt polls for at most `attemptMs`, then
 * hands back to the activity retry policy (which multiplies its interval by `retryBackoff` up to
 * `retryMaxIntervalMs`), so a long review neither holds a worker slot nor adds workflow history.
 * With `attemptMs` below the poll interval an attempt is a single probe without heartbeats (the
 * slow waits): each probe is one billable action (an activity retry), so the cost of a wait is
 * its number of probes, logarithmic in its length while the interval grows.
 */
import { z } from 'zod';

export interface WaitProfile {
  /** First provider poll after the activity starts (ms). */
  firstPollMs: number;
  /** Ceiling of the poll interval within an attempt (ms). */
  maxPollMs: number;
  /** Poll interval growth factor within an attempt. */
  backoff: number;
  /** Longest a single long-poll attempt runs before yielding to the retry policy (ms). */
  attemptMs: number;
  /**
   * Heartbeat timeout of the long-poll activity; a dead worker is noticed after this (ms). The
   * activity heartbeats by itself while it runs (activities/heartbeats.ts), a single quick probe
   * not at all.
   */
  heartbeatTimeoutMs: number;
  /** Retry policy of the long-poll activity between attempts. */
  retryInitialIntervalMs: number;
  retryMaxIntervalMs: number;
  /**
   * Growth factor of the interval between attempts.
   * @default 2 (profiles and overrides from before this field existed)
   */
  retryBackoff?: number;
}

/** Card operations settle in seconds: poll briskly, webhooks normally win. */
export const CARD_OPERATION_WAIT: WaitProfile = {
  firstPollMs: 2_000,
  maxPollMs: 30_000,
  backoff: 2,
  attemptMs: 10 * 60_000,
  heartbeatTimeoutMs: 10_000,
  retryInitialIntervalMs: 30_000,
  retryMaxIntervalMs: 10 * 60_000,
};

/**
 * Reviews, activation codes and work orders take minutes to days and end with a webhook; probes
 * are the net for a lost one, and hourly reconciliation the net behind them. Each attempt is one
 * probe and the retry policy the schedule: 5 s, then 1 min growing six-fold, then every 3 days. A
 * wait so costs about the log of its length (a week: 6 probes, where 30-minute probes cost 336);
 * the price, a lost webhook of a day-old review found days later, is why reconciliation compares
 * every waiting cardholder with the provider each hour.
 */
export const REVIEW_WAIT: WaitProfile = {
  firstPollMs: 5_000,
  maxPollMs: 60_000,
  backoff: 2,
  attemptMs: 1_000,
  // Above firstPollMs with room: the head-start sleep and a quick probe send no heartbeat.
  heartbeatTimeoutMs: 10_000,
  retryInitialIntervalMs: 60_000,
  retryBackoff: 6,
  retryMaxIntervalMs: 3 * 24 * 3_600_000,
};

/**
 * Pauses before a probe that could not ask (HTTP 5xx, timeout, failed connection) asks again,
 * inside the same activity attempt (activities/long-poll.ts): seconds, growing, five at most
 * (30 s in all). Only a definite "not yet" waits for the wait's next probe; a provider that
 * stays unreachable through these goes back to the retry policy.
 */
export const REPROBE_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 15_000];

/** Fast profile for tests against the zero-delay sandbox. */
export const TEST_WAIT: WaitProfile = {
  firstPollMs: 50,
  maxPollMs: 500,
  backoff: 2,
  attemptMs: 20_000,
  heartbeatTimeoutMs: 5_000,
  retryInitialIntervalMs: 200,
  retryMaxIntervalMs: 1_000,
};

/** Fast probe-per-attempt profile for tests (the shape of {@link REVIEW_WAIT}). */
export const TEST_SLOW_WAIT: WaitProfile = { ...TEST_WAIT, attemptMs: 1 };

/** Per-wait overrides a workflow input may carry (tests, or a merchant with a slow bank). */
export interface WaitOverrides {
  cardOperation?: Partial<WaitProfile>;
  review?: Partial<WaitProfile>;
  /**
   * How long a provider call keeps retrying before its step fails (workflows/calls/profiles.ts
   * PROVIDER_CALL).
   */
  providerRetry?: ProviderRetry;
  /**
   * How long a cancelled card's balance is awaited before it is reported (ms; {@link
   * CANCEL_RETURN_DEADLINE_MS}).
   */
  cancelReturnMs?: number;
}

/**
 * How long a card's workflow waits for a cancelled card's balance to come back before it records
 * the money as not returned (a `strandedMoney` record, a reconciliation finding) and ends. A
 * provider returns it within minutes; a day leaves room for an outage without hiding a loss.
 */
export const CANCEL_RETURN_DEADLINE_MS = 24 * 3_600_000;

const waitFields = z
  .object({
    firstPollMs: z.number().positive(),
    maxPollMs: z.number().positive(),
    backoff: z.number().min(1),
    attemptMs: z.number().positive(),
    heartbeatTimeoutMs: z.number().positive(),
    retryInitialIntervalMs: z.number().positive(),
    retryMaxIntervalMs: z.number().positive(),
    retryBackoff: z.number().min(1),
  })
  .partial();

/** The rule of {@link WaitOverrides} in every request that may carry them (optional as a whole). */
export const WaitOverridesSchema = z
  .object({
    cardOperation: waitFields.optional(),
    review: waitFields.optional(),
    providerRetry: z
      .object({
        maximumAttempts: z.number().int().positive(),
        initialIntervalMs: z.number().positive(),
        maximumIntervalMs: z.number().positive(),
      })
      .partial()
      .optional(),
    cancelReturnMs: z.number().positive().optional(),
  })
  .optional();

/** The retry of one provider call (a read, or a mutation with its lookup). */
export interface ProviderRetry {
  maximumAttempts?: number;
  initialIntervalMs?: number;
  maximumIntervalMs?: number;
}

/** The next poll delay after `current`: grows by `backoff`, capped at `maxPollMs`. */
export function nextPollDelay(current: number, profile: Pick<WaitProfile, 'backoff' | 'maxPollMs'>): number {
  return Math.min(Math.max(1, Math.round(current * profile.backoff)), profile.maxPollMs);
}

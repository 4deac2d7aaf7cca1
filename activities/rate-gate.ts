/**
 * A token bucket the activities of one worker share: at most `perSecond` takes per second, with
 * a burst of one second's worth. The re-probes after a probe that could not ask go through it
 * (activities/long-poll.ts): the server's rate limit of the probe queue counts activity attempts,
 * and a re-probe is not one, so without the gate a provider outage would turn every failing probe
 * into several quick calls at once.
 */
import { sleep as activitySleep } from '@temporalio/activity';

export interface RateGate {
  /** Resolves once a take is allowed (waiting cancellably when the bucket is empty). */
  take(): Promise<void>;
}

/** The clock a gate reads and waits on: the activity's cancellable sleep by default. */
export interface GateClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const ACTIVITY_CLOCK: GateClock = { now: () => Date.now(), sleep: activitySleep };

export function createRateGate(perSecond: number, clock: GateClock = ACTIVITY_CLOCK): RateGate {
  const capacity = Math.max(1, perSecond);
  let tokens = capacity;
  let refilledAt = clock.now();
  const refill = () => {
    const at = clock.now();
    tokens = Math.min(capacity, tokens + ((at - refilledAt) / 1000) * perSecond);
    refilledAt = at;
  };
  return {
    async take() {
      for (;;) {
        refill();
        if (tokens >= 1) {
          tokens -= 1;
          return;
        }
        await clock.sleep(Math.ceil(((1 - tokens) / perSecond) * 1000));
      }
    },
  };
}

/** No limit (activities built without a worker's probe budget: tests calling them directly). */
export const UNLIMITED: RateGate = { take: () => Promise.resolve() };

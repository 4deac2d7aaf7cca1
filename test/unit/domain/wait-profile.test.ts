/**
 * The review probe schedule: how many probes a wait of a given length makes (each one billable
 * action), and how late a lost webhook is noticed by a probe alone. The schedule is the activity
 * retry policy's (interval growing by retryBackoff up to retryMaxIntervalMs), computed here from
 * the profile as the server applies it.
 */
import { REVIEW_WAIT, type WaitProfile } from '../../../domain/wait-profile';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** When each retry (probe after the first) starts, from the wait's start, up to `horizonMs`. */
function retryTimes(profile: WaitProfile, horizonMs: number): number[] {
  const times: number[] = [];
  let at = 0;
  let interval = profile.retryInitialIntervalMs;
  for (;;) {
    at += interval;
    if (at > horizonMs) return times;
    times.push(at);
    interval = Math.min(interval * (profile.retryBackoff ?? 2), profile.retryMaxIntervalMs);
  }
}

it.each([
  ['1 minute', 1, MINUTE],
  ['1 hour', 3, 60 * MINUTE],
  ['1 day', 4, DAY],
  ['7 days', 6, 7 * DAY],
  ['30 days', 14, 30 * DAY],
])('a %s review costs %i probes after the first', (_label, probes, waitMs) => {
  expect(retryTimes(REVIEW_WAIT, waitMs)).toHaveLength(probes);
});

it('grows with the logarithm of the wait: a week costs a handful more probes than an hour', () => {
  const hour = retryTimes(REVIEW_WAIT, 60 * MINUTE).length;
  const week = retryTimes(REVIEW_WAIT, 7 * DAY).length;
  expect(week - hour).toBeLessThanOrEqual(3);
  // With the former doubling to a 30-minute ceiling the same week cost 339 probes.
  expect(retryTimes({ ...REVIEW_WAIT, retryBackoff: 2, retryMaxIntervalMs: 30 * MINUTE }, 7 * DAY)).toHaveLength(339);
});

it('a probe alone notices a lost webhook within the ceiling (3 days); reconciliation is the net inside it', () => {
  const times = [0, ...retryTimes(REVIEW_WAIT, 60 * DAY)];
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  expect(Math.max(...gaps)).toBe(3 * DAY);
  expect(REVIEW_WAIT.retryMaxIntervalMs).toBe(3 * DAY);
});

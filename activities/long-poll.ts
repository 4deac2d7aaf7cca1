/**
 * Long-poll: an activity that polls the provider with backoff until a state is reached,
 * heartbeating before each sleep between polls. Resumes its backoff from `heartbeatDetails` on a
 * retry. When an attempt has run `attemptMs` it fails benignly with `StillWaiting`, so the retry
 * policy spaces further attempts and no worker slot is held for days.
 *
 * With `attemptMs` shorter than the poll interval an attempt is one probe and no heartbeat: the
 * retry policy alone is the poll loop (slow waits such as reviews, domain/wait-profile.ts).
 * Cancellable: the provider call gets the activity's AbortSignal and the sleep between polls
 * rejects on cancellation.
 */
import { activityInfo, cancellationSignal, heartbeat, sleep } from '@temporalio/activity';
import { nextPollDelay, type WaitProfile } from '../domain/wait-profile';
import { stillWaiting } from './failures';

/** The part of a wait profile the activity itself uses. */
export type PollSettings = Pick<WaitProfile, 'firstPollMs' | 'maxPollMs' | 'backoff' | 'attemptMs'>;

/** Heartbeat details: enough to resume the backoff and to tell an operator what was last seen. */
export interface PollProgress {
  delayMs: number;
  polls: number;
  lastState?: string;
}

export interface LongPoll<T> {
  poll: PollSettings;
  /** One provider read; `signal` aborts it when the activity is cancelled. */
  probe: (signal: AbortSignal) => Promise<T>;
  /** True when `value` is the awaited state. */
  done: (value: T) => boolean;
  /** A short, non-personal description of `value` for the heartbeat (e.g. its status). */
  describe: (value: T) => string;
  /** What is awaited, for the StillWaiting message. */
  what: string;
}

function resumed(): PollProgress | undefined {
  const details: unknown = activityInfo().heartbeatDetails;
  if (details && typeof details === 'object' && typeof (details as PollProgress).delayMs === 'number')
    return details as PollProgress;
  return undefined;
}

export async function longPoll<T>(spec: LongPoll<T>): Promise<T> {
  const started = Date.now();
  const previous = resumed();
  let progress: PollProgress = previous ?? { delayMs: spec.poll.firstPollMs, polls: 0 };
  // A fresh wait gives the webhook a head start; a resumed one polls at once.
  if (!previous && activityInfo().attempt === 1) await sleep(spec.poll.firstPollMs);
  for (;;) {
    const value = await spec.probe(cancellationSignal());
    progress = { ...progress, polls: progress.polls + 1, lastState: spec.describe(value) };
    if (spec.done(value)) return value;
    if (Date.now() - started + progress.delayMs > spec.poll.attemptMs) {
      throw stillWaiting(`still waiting for ${spec.what} (last seen: ${progress.lastState}, ${progress.polls} polls)`);
    }
    // Only an attempt that goes on polling heartbeats (each heartbeat that reaches the server is
    // a billable action): a probe-per-attempt wait never does.
    heartbeat(progress);
    await sleep(progress.delayMs);
    progress = { ...progress, delayMs: nextPollDelay(progress.delayMs, spec.poll) };
  }
}

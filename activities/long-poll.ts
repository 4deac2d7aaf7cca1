/**
 * Long-poll: an activity that polls the provider with backoff until a state is reached, resuming
 * its backoff from `heartbeatDetails` on a retry. Past `attemptMs` an attempt fails benignly with
 * `StillWaiting`, so the retry policy spaces further attempts and no slot is held for days; with
 * `attemptMs` below the poll interval an attempt is one probe, the retry policy the poll loop.
 * Only a definite "not yet" ends a probe: one that could not ask ({@link couldNotAsk}) asks again
 * after `REPROBE_DELAYS_MS` within the attempt, through the worker's rate gate, so an outage moves
 * neither the attempt count nor the probe schedule, nor turns into a stampede. Cancellable.
 */
import { activityInfo, cancellationSignal, sleep } from '@temporalio/activity';
import { ProviderError } from '../provider/errors';
import { isFinalOperationStatus } from '../provider/rules';
import { nextPollDelay, REPROBE_DELAYS_MS, type WaitProfile } from '../domain/wait-profile';
import { stillWaiting } from '../domain/failures';
import { reportProgress } from './heartbeats';
import { UNLIMITED, type RateGate } from './rate-gate';

/** The part of a wait profile the activity itself uses. */
export type PollSettings = Pick<WaitProfile, 'firstPollMs' | 'maxPollMs' | 'backoff' | 'attemptMs'>;

/**
 * The provider could not be asked, which says nothing about the awaited state: a transport
 * failure or timeout, a 5xx, a business code marked retryable (busy, rate-limited). A definite
 * answer, a malformed one, or the activity's own cancellation is not.
 */
export function couldNotAsk(error: unknown): boolean {
  return error instanceof ProviderError && error.retryable;
}

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
  /** The worker's gate for re-probes (ActivityDeps.reprobes); default unlimited. */
  reprobes?: RateGate | undefined;
}

function resumed(): PollProgress | undefined {
  const details: unknown = activityInfo().heartbeatDetails;
  if (details && typeof details === 'object' && typeof (details as PollProgress).delayMs === 'number')
    return details as PollProgress;
  return undefined;
}

/** One probe: asked again after a failure that could not ask, up to `delays`. */
export async function ask<T>(spec: LongPoll<T>, delays: readonly number[] = REPROBE_DELAYS_MS): Promise<T> {
  for (let failures = 0; ; failures += 1) {
    try {
      return await spec.probe(cancellationSignal());
    } catch (error) {
      const pause = delays[failures];
      if (pause === undefined || !couldNotAsk(error)) throw error;
      await sleep(pause);
      await (spec.reprobes ?? UNLIMITED).take();
    }
  }
}

export async function longPoll<T>(spec: LongPoll<T>): Promise<T> {
  const started = Date.now();
  const previous = resumed();
  let progress: PollProgress = previous ?? { delayMs: spec.poll.firstPollMs, polls: 0 };
  // A fresh wait gives the webhook a head start; a resumed one polls at once.
  if (!previous && activityInfo().attempt === 1) await sleep(spec.poll.firstPollMs);
  for (;;) {
    const value = await ask(spec);
    progress = { ...progress, polls: progress.polls + 1, lastState: spec.describe(value) };
    if (spec.done(value)) return value;
    if (Date.now() - started + progress.delayMs > spec.poll.attemptMs) {
      throw stillWaiting(`still waiting for ${spec.what} (last seen: ${progress.lastState}, ${progress.polls} polls)`);
    }
    // Only an attempt that goes on polling reports its progress (each heartbeat that reaches the
    // server is a billable action): a probe-per-attempt wait does not.
    reportProgress(progress);
    await sleep(progress.delayMs);
    progress = { ...progress, delayMs: nextPollDelay(progress.delayMs, spec.poll) };
  }
}

/** A record the provider keeps by its key, awaited until its status is final (SUCCESS or FAIL). */
export interface FinalRecordPoll<T> extends Pick<LongPoll<T>, 'poll' | 'reprobes' | 'what'> {
  /** The record of the key, or undefined while the provider has none (not yet). */
  find: () => Promise<T | undefined>;
  /** The record's operation status. */
  status: (record: T) => string;
  /** The heartbeat's description of a record; default its status. */
  describe?: (record: T) => string;
  /** The heartbeat's description while there is no record; default `not found`. */
  absent?: string;
}

/** {@link longPoll} for a record found by its key until its status is final. */
export async function longPollFinal<T>(spec: FinalRecordPoll<T>): Promise<T> {
  const describe = spec.describe ?? spec.status;
  const record = await longPoll<T | undefined>({
    poll: spec.poll,
    reprobes: spec.reprobes,
    what: spec.what,
    probe: () => spec.find(),
    done: (found) => found !== undefined && isFinalOperationStatus(spec.status(found)),
    describe: (found) => (found === undefined ? (spec.absent ?? 'not found') : describe(found)),
  });
  // done() accepts only a found record.
  return record as T;
}

/**
 * The activity that waits for the record of a merchantOrderNo (a card operation, a work order)
 * until its status is final: {@link longPollFinal} keyed by the input's merchantOrderNo.
 */
export function awaitFinalByOrderNo<T>(spec: {
  /** What the record is, for the StillWaiting message (`<what> <merchantOrderNo>`). */
  what: string;
  find: (merchantOrderNo: string) => Promise<T | undefined>;
  status: (record: T) => string;
  reprobes: RateGate | undefined;
}): (input: { merchantOrderNo: string; poll: PollSettings }) => Promise<T> {
  return (input) =>
    longPollFinal({
      poll: input.poll,
      reprobes: spec.reprobes,
      what: `${spec.what} ${input.merchantOrderNo}`,
      find: () => spec.find(input.merchantOrderNo),
      status: spec.status,
    });
}

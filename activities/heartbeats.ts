/**
 * Heartbeats that tell Temporal the worker running an activity is alive, so a call in flight on a
 * worker that died is retried elsewhere after the activity's heartbeat timeout (seconds), not its
 * start-to-close timeout. Every activity is wrapped once ({@link withPulse}, activities/index.ts):
 * when its options give a heartbeat timeout, a timer heartbeats while it runs, the first time at
 * 60% of the timeout, so a call that answers in a fraction of it sends none (a heartbeat that
 * reaches the server is a billable action). The SDK holds a heartbeat back at most 1 s before
 * sending it (`HEARTBEAT_THROTTLE`, workers/create-worker.ts), so each pulse reaches the server.
 * Activities that keep progress in heartbeat details ({@link reportProgress}, the long polls) get
 * those details repeated, never replaced by an empty heartbeat.
 */
import { Context } from '@temporalio/activity';

/** The details last reported by each running activity. */
const progressOf = new WeakMap<Context, unknown>();

/** Heartbeats `details` now and keeps them as what the pulse repeats. */
export function reportProgress(details: unknown): void {
  const context = Context.current();
  progressOf.set(context, details);
  context.heartbeat(details);
}

/** First pulse after this share of the heartbeat timeout, then one per {@link PULSE_SHARE}. */
const FIRST_PULSE_SHARE = 0.6;
const PULSE_SHARE = 1 / 3;

function currentContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined; // called outside an activity (a unit test calling the function itself)
  }
}

/** Runs `run` heartbeating as long as it runs, when the activity has a heartbeat timeout. */
export async function withPulse<T>(run: () => Promise<T>): Promise<T> {
  const context = currentContext();
  const timeoutMs = context?.info.heartbeatTimeoutMs;
  if (!context || !timeoutMs) return run();
  const beat = () =>
    context.heartbeat(progressOf.has(context) ? progressOf.get(context) : context.info.heartbeatDetails);
  let timer = setTimeout(function pulse() {
    beat();
    timer = setTimeout(pulse, Math.max(100, timeoutMs * PULSE_SHARE));
  }, timeoutMs * FIRST_PULSE_SHARE);
  try {
    return await run();
  } finally {
    clearTimeout(timer);
  }
}

/** The activities of a factory, each heartbeating while it runs ({@link withPulse}). */
export function pulsing<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(activities))
    wrapped[name] = (...args: never[]) => withPulse(() => run(...args));
  return wrapped as T;
}

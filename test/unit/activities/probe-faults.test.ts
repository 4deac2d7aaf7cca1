/**
 * What a probe does with a failure (activities/long-poll.ts), how re-probes are rate-limited
 * (activities/rate-gate.ts), and when an activity heartbeats by itself (activities/heartbeats.ts),
 * under MockActivityEnvironment.
 */
import type { Info } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import {
  ProviderAbortedError,
  ProviderBusinessError,
  ProviderResponseError,
  ProviderServerError,
  ProviderTimeoutError,
  ProviderTransportError,
} from '../../../provider/errors';
import { reportProgress, withPulse } from '../../../activities/heartbeats';
import { ask, couldNotAsk, type LongPoll } from '../../../activities/long-poll';
import { createRateGate } from '../../../activities/rate-gate';

const server500 = () => new ProviderServerError({ httpStatus: 500 });

describe('couldNotAsk', () => {
  it('is true for what says nothing about the awaited state', () => {
    expect(couldNotAsk(server500())).toBe(true);
    expect(couldNotAsk(new ProviderTimeoutError(15_000))).toBe(true);
    expect(couldNotAsk(new ProviderTransportError('socket closed', { code: 'ECONNRESET' }))).toBe(true);
    expect(couldNotAsk(new ProviderBusinessError({ code: 429, msg: 'busy' }))).toBe(true);
  });

  it('is false for an answer, a malformed answer, a refusal and the activity’s own cancellation', () => {
    expect(couldNotAsk(new ProviderResponseError('bad shape'))).toBe(false);
    expect(couldNotAsk(new ProviderBusinessError({ code: 40001, msg: 'holderId: invalid' }))).toBe(false);
    expect(couldNotAsk(new ProviderAbortedError())).toBe(false);
    expect(couldNotAsk(new Error('cardholder 1 not found'))).toBe(false);
  });
});

describe('ask', () => {
  /** A probe that throws `failures` in turn, then answers `value`. */
  function probeOf<T>(failures: Error[], value: T): LongPoll<T> & { calls: () => number } {
    let calls = 0;
    return {
      poll: { firstPollMs: 1, maxPollMs: 1, backoff: 1, attemptMs: 1 },
      what: 'test',
      describe: String,
      done: () => true,
      probe: () => {
        const failure = failures[calls];
        calls += 1;
        return failure ? Promise.reject(failure) : Promise.resolve(value);
      },
      calls: () => calls,
    };
  }

  it('asks again after a probe that could not ask, and returns the answer', async () => {
    const spec = probeOf([server500(), new ProviderTimeoutError(10), server500()], 'pending');
    const value = await new MockActivityEnvironment().run(() => ask(spec, [5, 5, 5]));
    expect([value, spec.calls()]).toEqual(['pending', 4]);
  });

  it('returns a definite answer at once, even "not yet"', async () => {
    const spec = probeOf([], 'pending');
    await new MockActivityEnvironment().run(() => ask(spec, [5]));
    expect(spec.calls()).toBe(1);
  });

  it('gives up after its pauses, with the last failure (the retry policy takes over)', async () => {
    const spec = probeOf([server500(), server500(), server500()], 'never');
    await expect(new MockActivityEnvironment().run(() => ask(spec, [5, 5]))).rejects.toBeInstanceOf(
      ProviderServerError,
    );
    expect(spec.calls()).toBe(3);
  });

  it('does not ask again after a failure that is an answer', async () => {
    const spec = probeOf([new ProviderResponseError('bad shape')], 'never');
    await expect(new MockActivityEnvironment().run(() => ask(spec, [5, 5]))).rejects.toBeInstanceOf(
      ProviderResponseError,
    );
    expect(spec.calls()).toBe(1);
  });

  it('takes a token from the worker’s gate before each re-probe', async () => {
    const spec = probeOf([server500(), server500()], 'ok');
    const takes: number[] = [];
    await new MockActivityEnvironment().run(() =>
      ask({ ...spec, reprobes: { take: () => Promise.resolve(void takes.push(spec.calls())) } }, [1, 1]),
    );
    expect(takes).toEqual([1, 2]);
  });
});

describe('createRateGate', () => {
  it('lets a second’s worth through at once, then one per 1/rate seconds', async () => {
    let now = 0;
    const waits: number[] = [];
    const gate = createRateGate(2, {
      now: () => now,
      sleep: (ms) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    });
    for (let i = 0; i < 5; i += 1) await gate.take();
    // Two at once (the burst), then one each 500 ms.
    expect(waits).toEqual([500, 500, 500]);
    expect(now).toBe(1_500);
  });
});

describe('withPulse', () => {
  function heartbeatsOf(env: MockActivityEnvironment): unknown[] {
    const beats: unknown[] = [];
    env.on('heartbeat', (details: unknown) => beats.push(details));
    return beats;
  }
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('sends nothing for a call that answers well within the heartbeat timeout', async () => {
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 300 });
    const beats = heartbeatsOf(env);
    await env.run(() => withPulse(() => pause(50)));
    expect(beats).toHaveLength(0);
  });

  it('heartbeats while a call runs longer, repeating the progress last reported', async () => {
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 300 });
    const beats = heartbeatsOf(env);
    await env.run(() =>
      withPulse(async () => {
        reportProgress({ polls: 1 });
        await pause(600);
      }),
    );
    // Reported once, then the pulse: first at 180 ms, then every 100 ms.
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(new Set(beats.map((b) => JSON.stringify(b)))).toEqual(new Set([JSON.stringify({ polls: 1 })]));
  });

  it('never heartbeats an activity without a heartbeat timeout', async () => {
    // The mock's default info has a heartbeat timeout; an explicit undefined removes it.
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: undefined } as unknown as Partial<Info>);
    const beats = heartbeatsOf(env);
    await env.run(() => withPulse(() => pause(100)));
    expect(beats).toHaveLength(0);
  });
});

/**
 * Retrying through a Temporal restart (platform/temporal/unavailable-retry.ts): which errors are
 * worth waiting for, the bounded retry and what it says, and a start retried after its answer was
 * lost, which finds its own execution (client/start.ts) and reports it as started, never starting
 * twice; a reconciliation run and a resumed onboarding ride it out like every other start.
 */
import { type Client, ScheduleAlreadyRunning, ServiceError } from '@temporalio/client';
import {
  defaultPayloadConverter,
  NamespaceNotFoundError,
  WorkflowExecutionAlreadyStartedError,
} from '@temporalio/common';
import { runCli } from '../../../client/cli/main';
import { ExitCodes } from '../../../client/cli/context';
import { ensureReconcileSchedule, startReconciliation } from '../../../client/reconciliation';
import { retryOnboarding } from '../../../client/recovery';
import {
  isTemporalUnavailable,
  unavailableRetryDelayMs,
  retryWhileUnavailable,
  TemporalUnavailableError,
} from '../../../platform/temporal/unavailable-retry';
import { START_TOKEN_MEMO, startThroughOutage } from '../../../client/start';
import { readConfiguration } from '../../../platform/config/schema';
import { RECONCILE_SCHEDULE_ID } from '../../../domain/reconciliation';

/** A gRPC error as @grpc/grpc-js makes it (a status code on an Error). */
function grpcError(code: number, message: string): Error {
  return Object.assign(new Error(`${code} ${message}`), { code });
}
const unavailable = () =>
  new ServiceError('Failed to start Workflow', {
    cause: grpcError(14, 'UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 127.0.0.1:7233'),
  });

describe('isTemporalUnavailable', () => {
  it('waits for UNAVAILABLE, a refused connection and a namespace not (yet) found', () => {
    expect(isTemporalUnavailable(unavailable())).toBe(true);
    expect(isTemporalUnavailable(new Error('Failed to connect before the deadline'))).toBe(true);
    expect(isTemporalUnavailable(new NamespaceNotFoundError('cardflow'))).toBe(true);
    expect(isTemporalUnavailable(grpcError(5, "NOT_FOUND: Namespace not found: 'cardflow'"))).toBe(true);
  });

  it('does not wait for an answer: refused input, a workflow already started, another NOT_FOUND', () => {
    expect(isTemporalUnavailable(grpcError(3, 'INVALID_ARGUMENT: bad search attribute'))).toBe(false);
    expect(isTemporalUnavailable(new WorkflowExecutionAlreadyStartedError('started', 'id', 'type'))).toBe(false);
    expect(isTemporalUnavailable(grpcError(5, 'NOT_FOUND: workflow execution not found'))).toBe(false);
    expect(isTemporalUnavailable(new Error('boom'))).toBe(false);
  });
});

describe('retryWhileUnavailable', () => {
  it('retries until Temporal answers, and says once what it waits for and where', async () => {
    const said: string[] = [];
    let calls = 0;
    const value = await retryWhileUnavailable(
      '10.0.0.7:7233',
      () => (++calls < 3 ? Promise.reject(unavailable()) : Promise.resolve('ok')),
      { limitMs: 10_000, onWait: (m) => said.push(m) },
    );
    expect([value, calls]).toEqual(['ok', 3]);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Temporal at 10\.0\.0\.7:7233 unavailable \(14 UNAVAILABLE.*\), retrying for up to 10 s$/);
  });

  it('gives up after its limit with an error naming the address and the last cause', async () => {
    let calls = 0;
    const failure = await retryWhileUnavailable(
      '10.0.0.7:7233',
      () => {
        calls += 1;
        return Promise.reject(new NamespaceNotFoundError('cardflow'));
      },
      { limitMs: 1_000, onWait: () => undefined },
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TemporalUnavailableError);
    expect((failure as TemporalUnavailableError).address).toBe('10.0.0.7:7233');
    expect((failure as Error).message).toMatch(
      /^Temporal at 10\.0\.0\.7:7233 unavailable for \d s \(last: Namespace not found: 'cardflow'\)/,
    );
    // Tries at 0, 0.5 s; the next pause (1 s) would pass the limit.
    expect(calls).toBe(2);
  });

  it('passes any other error on at once', async () => {
    let calls = 0;
    const bad = grpcError(3, 'INVALID_ARGUMENT');
    await expect(
      retryWhileUnavailable('a:1', () => {
        calls += 1;
        return Promise.reject(bad);
      }),
    ).rejects.toBe(bad);
    expect(calls).toBe(1);
  });

  it('pauses 0.5 s doubling to 5 s; the limit comes from CARDFLOW_TEMPORAL_RIDE_OUT_MS', () => {
    expect([1, 2, 3, 4, 5, 6].map(unavailableRetryDelayMs)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(readConfiguration({}).CARDFLOW_TEMPORAL_RIDE_OUT_MS).toBeUndefined();
    expect(readConfiguration({ CARDFLOW_TEMPORAL_RIDE_OUT_MS: '0' }).CARDFLOW_TEMPORAL_RIDE_OUT_MS).toBe(0);
    expect(() => readConfiguration({ CARDFLOW_TEMPORAL_RIDE_OUT_MS: '1m' })).toThrow(
      /CARDFLOW_TEMPORAL_RIDE_OUT_MS: must be whole milliseconds/,
    );
  });
});

describe('startThroughOutage', () => {
  /**
   * A client whose first start commits but loses its answer; `existing` is the memo found on
   * describe.
   */
  function lostAnswerClient(existing: (first: Record<string, unknown>) => Record<string, unknown>) {
    const starts: Array<Record<string, unknown>> = [];
    const client = {
      connection: { options: { address: '127.0.0.1:7233' } },
      workflow: {
        start: (_type: string, options: { memo: Record<string, unknown> }) => {
          starts.push(options.memo);
          return Promise.reject(
            starts.length === 1 ? unavailable() : new WorkflowExecutionAlreadyStartedError('started', 'wf-1', 'type'),
          );
        },
        getHandle: (workflowId: string) => ({
          workflowId,
          describe: () => Promise.resolve({ memo: existing(starts[0]!) }),
        }),
      },
    } as unknown as Client;
    return { client, starts };
  }
  const options = { workflowId: 'wf-1', taskQueue: 'q', args: [] };
  const quiet = { limitMs: 5_000, onWait: () => undefined };

  it('reports as started the execution its own lost start created', async () => {
    const { client, starts } = lostAnswerClient((first) => first);
    const result = await startThroughOutage(client, 'type', options, quiet);
    expect(result.started).toBe(true);
    // Both tries carried the same token.
    expect(starts.map((m) => m[START_TOKEN_MEMO])).toEqual([
      starts[0]![START_TOKEN_MEMO],
      starts[0]![START_TOKEN_MEMO],
    ]);
  });

  it('reports an execution someone else started as not started', async () => {
    const { client } = lostAnswerClient(() => ({ [START_TOKEN_MEMO]: 'another-call' }));
    expect((await startThroughOutage(client, 'type', options, quiet)).started).toBe(false);
  });
});

describe('the starts beside startOnce', () => {
  const quiet = { limitMs: 5_000, onWait: () => undefined };
  /** A client whose Temporal is restarting: the first call of each kind meets `outage`. */
  function restartingClient(outage: () => Error, describeAnswer: Record<string, unknown> = {}) {
    const starts: Array<{ workflowId: string; workflowIdReusePolicy?: string }> = [];
    let describes = 0;
    const client = {
      connection: { options: { address: '127.0.0.1:7233' } },
      options: {
        loadedDataConverter: { payloadCodecs: [], payloadConverter: defaultPayloadConverter },
      },
      workflow: {
        start: (_type: string, options: { workflowId: string; workflowIdReusePolicy?: string }) => {
          starts.push(options);
          return starts.length === 1 ? Promise.reject(outage()) : Promise.resolve({ workflowId: options.workflowId });
        },
        getHandle: (workflowId: string) => ({
          workflowId,
          describe: () =>
            ++describes === 1 ? Promise.reject(outage()) : Promise.resolve({ workflowId, ...describeAnswer }),
          // The closed run's progress (what its compensations returned): it moved no money.
          query: () => Promise.resolve({ customerRef: 'c-1', stage: 'cancelled', stages: [] }),
          fetchHistory: () =>
            Promise.resolve({
              events: [
                {
                  workflowExecutionStartedEventAttributes: {
                    input: { payloads: [defaultPayloadConverter.toPayload({ customerRef: 'c-1' })] },
                  },
                },
              ],
            }),
        }),
      },
    } as unknown as Client;
    return { client, starts };
  }

  it('startReconciliation retries through a namespace not (yet) found, with one workflow id', async () => {
    const { client, starts } = restartingClient(() => new NamespaceNotFoundError('cardflow'));
    const handle = await startReconciliation(client, {}, { taskQueue: 'q', whileUnavailable: quiet });
    expect(starts).toHaveLength(2);
    expect(starts[1]!.workflowId).toBe(starts[0]!.workflowId);
    expect(handle.workflowId).toBe(starts[0]!.workflowId);
  });

  it('ensureReconcileSchedule retries through an unavailable Temporal, and updates what its lost create made', async () => {
    const calls: string[] = [];
    const client = {
      connection: { options: { address: '127.0.0.1:7233' } },
      schedule: {
        create: () => {
          calls.push('create');
          // The first create commits but its answer is lost; the second finds the schedule.
          return Promise.reject(
            calls.length === 1 ? unavailable() : new ScheduleAlreadyRunning('exists', RECONCILE_SCHEDULE_ID),
          );
        },
        getHandle: () => ({
          update: () => {
            calls.push('update');
            return Promise.resolve();
          },
        }),
      },
    } as unknown as Client;
    const ensured = await ensureReconcileSchedule(client, { intervalMs: 60_000, config: {}, whileUnavailable: quiet });
    expect(ensured).toEqual({ scheduleId: RECONCILE_SCHEDULE_ID, created: false });
    expect(calls).toEqual(['create', 'create', 'update']);
  });

  it('retryOnboarding retries through an unavailable Temporal, reading and then resuming', async () => {
    const { client, starts } = restartingClient(unavailable, {
      runId: 'run-1',
      taskQueue: 'q',
      status: { name: 'CANCELLED' },
      startTime: new Date(0),
    });
    const resumed = await retryOnboarding(client, 'c-1', { whileUnavailable: quiet });
    expect(resumed).toMatchObject({ previousRunId: 'run-1', previousStatus: 'CANCELLED', started: true });
    expect(starts.map((s) => s.workflowIdReusePolicy)).toEqual([
      'ALLOW_DUPLICATE_FAILED_ONLY',
      'ALLOW_DUPLICATE_FAILED_ONLY',
    ]);
  });
});

it('cardflow reconcile waits through "Namespace not found", then exits 4 naming the address, not as configuration', async () => {
  let starts = 0;
  const client = {
    connection: { options: { address: '10.0.0.7:7233' } },
    workflow: {
      start: () => {
        starts += 1;
        return Promise.reject(new NamespaceNotFoundError('cardflow'));
      },
    },
  } as unknown as Client;
  const err: string[] = [];
  const code = await runCli(['reconcile'], {
    out: () => undefined,
    err: (line) => err.push(line),
    env: { CARDFLOW_TEMPORAL_RIDE_OUT_MS: '1000' },
    connect: () => Promise.resolve({ client, namespace: 'cardflow', close: () => Promise.resolve() }),
  });
  expect(code).toBe(ExitCodes.unavailable);
  expect(starts).toBe(2);
  expect(err.join('\n')).toMatch(
    /^cardflow: Temporal at 10\.0\.0\.7:7233 unavailable \(Namespace not found: 'cardflow'\), retrying for up to 1 s\ncardflow: Temporal at 10\.0\.0\.7:7233 unavailable for \d s/,
  );
});

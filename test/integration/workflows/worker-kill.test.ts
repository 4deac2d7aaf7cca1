/**
 * A provider call in flight on a worker that dies is retried within seconds, on the activity's
 * heartbeat timeout (3 s, workflows/calls/profiles.ts PROVIDER_CALL), not its start-to-close
 * (60 s); and a worker told to stop (SIGTERM) lets the call it runs finish before it exits.
 *
 * Real worker processes (`workers/main.ts`) reach the provider through a gate
 * (test/integration/support/worker-process.ts). Worker A's card freeze is committed by the
 * sandbox and its answer held, with A's HTTP timeout above the hold, so A sits in the call,
 * heartbeating; worker B, already polling the same queue, takes the retry once A is killed.
 * A live worker held in a call for longer than the heartbeat timeout keeps its attempt (the
 * activity heartbeats while it runs): the freeze completes on attempt 2, whose previous attempt
 * ended with a heartbeat timeout.
 */
import { randomBytes } from 'node:crypto';
import { testCodecKeys } from '../support/temporal-env';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { operations } from '../../../provider/operations';
import type { CardOperationOutcome } from '../../../domain/card-operations';
import { WorkflowTypes } from '../../../domain/workflows';
import { until } from '../../support/until';
import { FAST_WAIT, startCardHarness, virtualCard, workerProcessEnv, type CardHarness } from '../support/card-harness';
import { encryptingClient } from '../support/harness';
import {
  startProviderGate,
  startWorkerProcess,
  type ProviderGate,
  type WorkerProcess,
} from '../support/worker-process';

// Worker start-ups (each bundles the workflows) on a shared machine.
jest.setTimeout(240_000);

const codecKeys = testCodecKeys('worker-kill');
const run = randomBytes(3).toString('hex');
const FREEZE_PATH = operations.freezeCard.path;
const { TimeoutType } = temporal.api.enums.v1;

let h: CardHarness;
let client: Client;
const gates: ProviderGate[] = [];
const workers: WorkerProcess[] = [];

async function workerProcess(gate: ProviderGate, extra: Record<string, string> = {}): Promise<WorkerProcess> {
  const worker = startWorkerProcess({
    ...workerProcessEnv(h, { providerUrl: gate.url, taskQueue: h.taskQueue, codecKeys }),
    ...extra,
  });
  workers.push(worker);
  await worker.polling(150_000);
  return worker;
}

async function gate(): Promise<ProviderGate> {
  const started = await startProviderGate(h.sandbox.env.CARDFLOW_PROVIDER_BASE_URL!);
  gates.push(started);
  return started;
}

/** The attempt the freeze's sendCardOperation completed on, and how the attempt before it ended. */
async function sendAttempt(workflowId: string): Promise<{ attempt: number; lastFailure: string | undefined }> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const scheduled = new Set<string>();
  for (const event of history.events ?? []) {
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'sendCardOperation')
      scheduled.add(String(event.eventId));
    const started = event.activityTaskStartedEventAttributes;
    if (started && scheduled.has(String(started.scheduledEventId))) {
      const timeout = started.lastFailure?.timeoutFailureInfo?.timeoutType;
      return {
        attempt: started.attempt ?? 0,
        lastFailure: timeout === undefined || timeout === null ? undefined : TimeoutType[timeout],
      };
    }
  }
  throw new Error('no sendCardOperation started');
}

beforeAll(async () => {
  h = await startCardHarness();
  client = encryptingClient(h, codecKeys);
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await Promise.all(gates.map((g) => g.close()));
  await h?.stop();
});

it('retries a call in flight on a killed worker within seconds, on another worker', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '5' });
  const gateA = await gate();
  // A's HTTP timeout above the test's length: A never gives up on the held answer by itself.
  const a = await workerProcess(gateA, { CARDFLOW_PROVIDER_TIMEOUT_MS: '200000' });
  gateA.hold([FREEZE_PATH]);
  const freeze = await client.workflow.start(WorkflowTypes.cardFreeze, {
    taskQueue: h.taskQueue,
    workflowId: `kill-freeze-${run}`,
    args: [{ cardNo, wait: FAST_WAIT }],
  });
  await gateA.waitForHeld({ [FREEZE_PATH]: 1 });
  // B starts while A sits in the call (tens of seconds: longer than the 3 s heartbeat timeout).
  const b = await workerProcess(await gate());
  const killedAt = Date.now();
  await a.stop('SIGKILL');
  const outcome = (await freeze.result()) as CardOperationOutcome;
  const recoveredMs = Date.now() - killedAt;
  process.stderr.write(`freeze completed ${recoveredMs} ms after its worker was killed\n`);

  expect(outcome.cardStatus).toBe('Freeze');
  // The heartbeat timeout (3 s), the first retry (1 s) and the dead worker's sticky workflow
  // task (2 s), with room for a loaded machine: the start-to-close timeout alone took 60 s.
  expect(recoveredMs).toBeLessThan(30_000);
  // Held while alive, A kept its attempt; the one after it ended on a heartbeat timeout.
  expect(await sendAttempt(freeze.workflowId)).toEqual({ attempt: 2, lastFailure: 'TIMEOUT_TYPE_HEARTBEAT' });
  // One freeze record: the retry found the dead worker's operation, it did not send again.
  const records = await h.provider.listCardTransactions({ pageNum: 1, pageSize: 10, cardNo, type: 'Freeze' });
  expect(records.records).toHaveLength(1);
  await b.stop('SIGTERM');
  expect(b.child.exitCode).toBe(0);
});

it('on SIGTERM lets the call in flight finish, then exits 0', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '5' });
  const gateA = await gate();
  const a = await workerProcess(gateA);
  // Answers 4 s late: within the worker's shutdown grace time (10 s).
  gateA.delay([FREEZE_PATH], 4_000);
  const committed = h.sandbox.commits({ operation: 'freezeCard' }).length;
  const freeze = await client.workflow.start(WorkflowTypes.cardFreeze, {
    taskQueue: h.taskQueue,
    workflowId: `term-freeze-${run}`,
    args: [{ cardNo, wait: FAST_WAIT }],
  });
  await until(
    () => Promise.resolve(h.sandbox.commits({ operation: 'freezeCard' }).length),
    (n) => n > committed,
    { timeoutMs: 60_000, pollMs: 50 },
  );
  await a.stop('SIGTERM');
  expect(a.child.exitCode).toBe(0);
  expect(a.output()).toMatch(/cardflow worker: stopped/);

  // The rest of the workflow runs on a worker started afterwards; the freeze was sent once and
  // its attempt completed on the stopping worker.
  await workerProcess(await gate());
  const outcome = (await freeze.result()) as CardOperationOutcome;
  expect(outcome.cardStatus).toBe('Freeze');
  expect((await sendAttempt(freeze.workflowId)).attempt).toBe(1);
});

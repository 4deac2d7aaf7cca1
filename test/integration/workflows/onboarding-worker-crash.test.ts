/**
 * A worker killed with SIGKILL in the middle of an onboarding (a separate process running
 * `workers/main.ts`), then a new worker process: the onboardings complete with exactly one
 * cardholder, one card and one deposit in the sandbox.
 *
 * The worker process encrypts payloads (`platform/codec/`), so this test's client uses the same
 * data converter over a key handed to both worker processes through `CARDFLOW_CODEC_KEYS`: a plain
 * client cannot read query answers or results the worker encoded.
 */
import type { Client } from '@temporalio/client';
import { progressQuery, type OnboardingResult } from '../../../domain/customer-onboarding';
import { onboardingStartAttributes } from '../../../domain/start-attributes';
import { cardholderWorkflowId, onboardingWorkflowId } from '../../../domain/workflow-ids';
import { cardholderStatusQuery } from '../../../domain/cardholder-onboarding';
import { WorkflowTypes } from '../../../domain/workflows';
import { testCodecKeys } from '../support/temporal-env';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';
import {
  CARD_TYPES,
  FAST_WAIT,
  cardOperations,
  cardholdersByEmail,
  customerRef,
  encryptingClient,
  harnessWorkerEnv,
  passReview,
  startHarness,
  type Harness,
} from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';
import { until } from '../../support/until';

jest.setTimeout(180_000);

const codecKeys = testCodecKeys('crash-test');

let h: Harness;
let client: Client;
const workers: WorkerProcess[] = [];

function workerProcess(): WorkerProcess {
  const worker = startWorkerProcess(harnessWorkerEnv(h, { taskQueue: h.taskQueue, codecKeys }));
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  h = await startHarness();
  client = encryptingClient(h, codecKeys);
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await h?.stop();
});

it('completes after the worker process is killed mid-review, creating each thing once', async () => {
  const email = uniqueEmail('review.stall');
  const first = workerProcess();
  await first.polling();

  const plainRef = customerRef('crash');
  const plain = await client.workflow.start(WorkflowTypes.customerOnboarding, {
    workflowId: onboardingWorkflowId(plainRef),
    taskQueue: h.taskQueue,
    args: [{ customerRef: plainRef, cardTypeId: CARD_TYPES.noHolderNoDeposit, initialDeposit: '25', wait: FAST_WAIT }],
    typedSearchAttributes: onboardingStartAttributes(plainRef),
  });
  // Another onboarding parks in a stalled review (the `review.stall` email) on the same worker.
  const stalledRef = customerRef('crash-review');
  const stalled = await client.workflow.start(WorkflowTypes.customerOnboarding, {
    workflowId: onboardingWorkflowId(stalledRef),
    taskQueue: h.taskQueue,
    args: [
      {
        customerRef: stalledRef,
        cardTypeId: CARD_TYPES.b2bWithDeposit,
        holder: b2bHolder(email),
        initialDeposit: '30',
        wait: FAST_WAIT,
      },
    ],
    typedSearchAttributes: onboardingStartAttributes(stalledRef),
  });
  const review = await until(
    () => client.workflow.getHandle(cardholderWorkflowId(stalledRef)).query(cardholderStatusQuery),
    (s) => s.stage === 'in_review' && s.holderId !== undefined,
    {
      timeoutMs: 90_000,
      pollMs: 200,
      context: () => `worker output:\n${workers.map((w) => w.output()).join('\n---\n')}`,
    },
  );
  await first.stop('SIGKILL');
  expect(first.child.signalCode).toBe('SIGKILL');

  // Both review stages (platform, then bank) pass while no worker runs; a new worker process
  // picks everything up.
  passReview(h, review.holderId!);
  const second = workerProcess();
  const [plainResult, reviewed] = [
    (await plain.result()) as OnboardingResult,
    (await stalled.result()) as OnboardingResult,
  ];
  expect((await stalled.query(progressQuery)).stage).toBe('completed');
  // Graceful stop of the second worker (SIGTERM): it exits by itself with code 0.
  await second.stop('SIGTERM');
  expect(second.child.exitCode).toBe(0);

  expect(await cardholdersByEmail(h.provider, email)).toHaveLength(1);
  expect(reviewed.cardholder?.holderId).toBe(review.holderId);
  expect(await cardOperations(h.provider, { type: 'create', cardNo: reviewed.card.cardNo })).toHaveLength(1);
  expect(await cardOperations(h.provider, { type: 'create', cardNo: plainResult.card.cardNo })).toHaveLength(1);
  expect(await cardOperations(h.provider, { type: 'deposit', cardNo: plainResult.card.cardNo })).toHaveLength(1);
  expect(plainResult.balance?.amount).toMatch(/^25(\.0+)?$/);
});

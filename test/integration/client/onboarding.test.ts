/**
 * The client library on the real dev server: one execution per customer reference however often
 * it is started, progress readable while a review is pending, a correction through the Update,
 * and the CLI refusing a bad input file before contacting anything.
 */
import { randomUUID } from 'node:crypto';
import { runCli } from '../../../client/cli/main';
import { inputFiles } from '../../support/input-files';
import { listQuery } from '../../../client/cli/onboarding-commands';
import {
  awaitResult,
  getProgress,
  startOnboarding,
  submitCorrection,
  type OnboardingRequest,
} from '../../../client/onboarding';
import { watchProgress } from '../../../client/progress';
import { InvalidInputError } from '../../../client/validation';
import { onboardingWorkflowId } from '../../../domain';
import { CARD_TYPES, FAST_WAIT, harnessPerFile, startHarness } from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';
import { eventually } from '../support/card-harness';
import { testTemporalServer } from '../support/temporal-env';
import { filledReferenceDir, sandboxReferenceData } from '../support/reference-data';
import type { ReferenceData } from '../../../client/reference-data';

jest.setTimeout(120_000);

const harness = harnessPerFile(startHarness);
const files = inputFiles('cardflow-cli-');
let shared: ReferenceData | undefined;
/** The reference data the starts are checked against, read from the sandbox once. */
const reference = () => (shared ??= sandboxReferenceData(harness.provider));

function input(customerRef: string, email: string) {
  return {
    customerRef,
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    holder: b2bHolder(email),
    initialDeposit: '20.00',
    wait: FAST_WAIT,
  };
}

/**
 * Executions with this customer's workflow id, as visibility (eventually consistent) lists them
 * once it lists any.
 */
async function executions(customerRef: string, expectAny = true): Promise<number> {
  const query = `WorkflowId = '${onboardingWorkflowId(customerRef)}'`;
  for (let i = 0; ; i++) {
    const { count } = await harness.client.workflow.count(query);
    if (count > 0 || !expectAny || i >= 50) return count;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('starting the same customer reference twice, running or closed, makes one execution', async () => {
  const customerRef = `dup-${randomUUID().slice(0, 8)}`;
  // No worker polls this queue: the first execution stays running while the second start arrives.
  const first = await startOnboarding(harness.client, input(customerRef, uniqueEmail('dup')), {
    taskQueue: harness.taskQueue,
    referenceData: reference(),
  });
  const second = await startOnboarding(harness.client, input(customerRef, uniqueEmail('other')), {
    taskQueue: harness.taskQueue,
    referenceData: reference(),
  });
  expect(first.started).toBe(true);
  expect(second.started).toBe(false);
  expect(second.workflowId).toBe(first.workflowId);
  const firstRun = (await first.handle.describe()).runId;
  expect((await second.handle.describe()).runId).toBe(firstRun);

  await first.handle.terminate('test: closed');
  const third = await startOnboarding(harness.client, input(customerRef, uniqueEmail('third')), {
    taskQueue: harness.taskQueue,
    referenceData: reference(),
  });
  expect(third.started).toBe(false);
  expect((await third.handle.describe()).runId).toBe(firstRun);
  expect(await executions(customerRef)).toBe(1);
});

it('refuses an invalid input before starting anything, naming the field and rule', async () => {
  const customerRef = `bad-${randomUUID().slice(0, 8)}`;
  // As a JavaScript caller sends it: the types refuse a number for a decimal string, the run-time
  // check too.
  const bad = { ...input(customerRef, 'not-an-email'), initialDeposit: 20 } as unknown as OnboardingRequest;
  await expect(startOnboarding(harness.client, bad, { taskQueue: harness.taskQueue })).rejects.toThrow(
    InvalidInputError,
  );
  await expect(startOnboarding(harness.client, bad, { taskQueue: harness.taskQueue })).rejects.toThrow(
    /initialDeposit: /,
  );
  expect(await executions(customerRef, false)).toBe(0);
});

it('refuses a holder whose town, area code or occupation is not in the reference data, starting nothing', async () => {
  const customerRef = `ref-${randomUUID().slice(0, 8)}`;
  const wrong = {
    ...input(customerRef, uniqueEmail('ref')),
    holder: b2bHolder('r@example.com', { town: 'XYZ', areaCode: '+999' }),
  };
  const error = await startOnboarding(harness.client, wrong, {
    taskQueue: harness.taskQueue,
    referenceData: reference(),
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidInputError);
  expect((error as InvalidInputError).problems).toEqual([
    'holder.areaCode: is not a mobile area code (reference data: mobile-area-codes)',
    'holder.town: is not a city code of region US (reference data: cities)',
  ]);
  // The CLI, from the cache the workers' refresh fills, refuses the same file with exit 2.
  const err: string[] = [];
  const code = await runCli(
    ['onboard', '--file', files.file('wrong-town.json', wrong), '--task-queue', harness.taskQueue],
    {
      out: () => {},
      err: (l) => err.push(l),
      env: { CARDFLOW_REFERENCE_DIR: await filledReferenceDir(harness.provider) },
      connect: async () => ({
        client: harness.client,
        namespace: testTemporalServer().namespace,
        close: async () => undefined,
      }),
    },
  );
  expect(code).toBe(2);
  expect(err.join('\n')).toContain('holder.town: is not a city code of region US (reference data: cities)');
  expect(err.join('\n')).toMatch(/nothing was started$/);
  expect(await executions(customerRef, false)).toBe(0);
});

it('the CLI rejects a bad input file naming the field, and contacts nothing', async () => {
  const file = files.file('customer.json', {
    ...input('cli-bad', 'x@example.com'),
    cardTypeId: 'visa',
    holder: { ...b2bHolder('x@example.com'), postCode: 'no spaces allowed' },
  });
  const out: string[] = [];
  const err: string[] = [];
  const connect = jest.fn(() => Promise.reject(new Error('must not connect')));
  const code = await runCli(['onboard', '--file', file], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: {},
    connect,
  });
  expect(code).toBe(2);
  expect(connect).not.toHaveBeenCalled();
  const message = err.join('\n');
  expect(message).toMatch(/cardTypeId: must be an id of digits/);
  expect(message).toMatch(/holder\.postCode: /);
  expect(message).toMatch(/nothing was started/);
  expect(message).not.toContain('no spaces allowed'); // rules, never values
  expect(out).toEqual([]);
});

it('progress is readable during review, a correction after a reject is accepted, and the onboarding completes', async () => {
  const customerRef = `fix-${randomUUID().slice(0, 8)}`;
  await harness.withWorker(async () => {
    const started = await startOnboarding(harness.client, input(customerRef, uniqueEmail('reject.admin')), {
      taskQueue: harness.taskQueue,
      referenceData: reference(),
    });
    expect(started.started).toBe(true);
    const stages: string[] = [];
    const abort = new AbortController();
    const watching = watchProgress(
      harness.client,
      customerRef,
      (p) => {
        stages.push(p.stage);
        if (p.stage === 'awaiting_correction') abort.abort();
      },
      { pollMs: 100, signal: abort.signal },
    );
    const watched = await watching;
    expect(watched.status).toBe('RUNNING');
    expect(stages.at(-1)).toBe('awaiting_correction');
    const progress = await getProgress(harness.client, customerRef);
    expect(progress).toEqual(expect.objectContaining({ customerRef, stage: 'awaiting_correction' }));
    expect(progress.review?.rejectReason).toBeTruthy();
    // An operator finds it by its stage, as `cardflow list --stage awaiting_correction` does.
    const query = listQuery({ stage: 'awaiting_correction', customer: customerRef });
    const found = async () => {
      const ids: string[] = [];
      for await (const execution of harness.client.workflow.list({ query })) ids.push(execution.workflowId);
      return ids;
    };
    await eventually(found, (ids) => ids.length > 0, 'the onboarding listed in awaiting_correction', 10_000);
    expect(await found()).toEqual([onboardingWorkflowId(customerRef)]);

    const status = await submitCorrection(
      harness.client,
      customerRef,
      { holder: b2bHolder(uniqueEmail('fixed')) },
      { referenceData: reference() },
    );
    expect(status.resubmissions).toBe(1);
    const result = await awaitResult(harness.client, customerRef);
    expect(result.customerRef).toBe(customerRef);
    expect(result.cardholder?.resubmissions).toBe(1);
    expect(result.card.cardNo).toMatch(/\S/);
    expect((await getProgress(harness.client, customerRef)).stage).toBe('completed');
  });
});

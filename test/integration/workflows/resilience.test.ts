/**
 * Lost, repeated and reordered webhooks, responses dropped after the provider committed, and
 * repeated starts: each onboarding completes with exactly one cardholder, card and deposit.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { OnboardingInput, OnboardingResult } from '../../../domain/customer-onboarding';
import type { WaitOverrides } from '../../../domain/wait-profile';
import type { FaultUpdate } from '../../../tools/sandbox';
import {
  CARD_TYPES,
  FAST_WAIT,
  cardOperations,
  cardholdersByEmail,
  customerRef,
  startHarness,
  startOnboardingWorkflow,
  workflowBundle,
  type Harness,
} from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';

jest.setTimeout(120_000);

beforeAll(async () => {
  await workflowBundle();
}, 120_000);

/**
 * Provider calls retried within seconds: these cases prove that a fault is retried without a
 * second effect, not the production backoff (0.5 s doubling to a minute), under which a few unlucky
 * attempts in a row at a 30% error rate outlast the test (one seed took 99 s).
 */
const RESILIENCE_WAIT: WaitOverrides = {
  ...FAST_WAIT,
  providerRetry: { initialIntervalMs: 200, maximumIntervalMs: 2_000 },
};

/**
 * Onboards one customer with a cardholder (B2B, deposit at creation) and one without (deposit after
 * creation).
 */
async function onboardBoth(h: Harness) {
  const email = uniqueEmail('resilient');
  return h.withWorker(async () => {
    const withHolder = await startOnboardingWorkflow(h, {
      customerRef: customerRef('holder'),
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder: b2bHolder(email),
      initialDeposit: '20',
      wait: RESILIENCE_WAIT,
    });
    const withDeposit = await startOnboardingWorkflow(h, {
      customerRef: customerRef('deposit'),
      cardTypeId: CARD_TYPES.noHolderNoDeposit,
      initialDeposit: '20',
      wait: RESILIENCE_WAIT,
    });
    return {
      email,
      a: (await withHolder.result()) as OnboardingResult,
      b: (await withDeposit.result()) as OnboardingResult,
    };
  });
}

async function expectExactlyOnce(h: Harness, run: Awaited<ReturnType<typeof onboardBoth>>) {
  h.sandbox.setFaults({ reset: true }); // the checks below read through the same API
  expect(await cardholdersByEmail(h.provider, run.email)).toHaveLength(1);
  expect(await cardOperations(h.provider, { type: 'create', cardNo: run.a.card.cardNo })).toHaveLength(1);
  expect(await cardOperations(h.provider, { type: 'create', cardNo: run.b.card.cardNo })).toHaveLength(1);
  expect(await cardOperations(h.provider, { type: 'deposit', cardNo: run.b.card.cardNo })).toHaveLength(1);
  expect(run.a.balance?.amount).toMatch(/^20(\.0+)?$/);
  expect(run.b.balance?.amount).toMatch(/^20(\.0+)?$/);
}

describe.each<[string, { webhooks?: boolean; faults?: FaultUpdate }]>([
  ['webhooks never delivered: polling completes', { webhooks: false }],
  [
    'every webhook duplicated and reordered: one effect',
    { faults: { webhookDuplicateRate: 1, webhookReorderRate: 1 } },
  ],
  [
    'every mutating response dropped after commit once: found by merchantOrderNo',
    { faults: { dropResponseRate: 1, operations: ['createCardholder', 'createCard', 'depositCard'], remaining: 3 } },
  ],
  ['provider answering HTTP 500 now and then: retried', { faults: { errorRate: 0.3 } }],
])('%s', (_name, options) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(options);
  }, 60_000);
  afterAll(async () => h?.stop());

  it('onboards with exactly one cardholder, card and deposit', async () => {
    await expectExactlyOnce(h, await onboardBoth(h));
  });
});

describe('repeated starts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => h?.stop());

  it('a start while running is refused, and a start after completion finds what exists and creates nothing twice', async () => {
    const email = uniqueEmail('again');
    const ref = customerRef('again');
    const input: OnboardingInput = {
      customerRef: ref,
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder: b2bHolder(email),
      initialDeposit: '20',
      wait: RESILIENCE_WAIT,
    };
    const [first, second] = await h.withWorker(async () => {
      const handle = await startOnboardingWorkflow(h, input);
      await expect(startOnboardingWorkflow(h, input)).rejects.toThrow(WorkflowExecutionAlreadyStartedError);
      const one = (await handle.result()) as OnboardingResult;
      const two = (await (await startOnboardingWorkflow(h, input)).result()) as OnboardingResult;
      return [one, two];
    });
    expect(second.card.cardNo).toBe(first.card.cardNo);
    expect(second.cardholder?.holderId).toBe(first.cardholder?.holderId);
    expect(await cardholdersByEmail(h.provider, email)).toHaveLength(1);
    expect(await cardOperations(h.provider, { type: 'create', cardNo: first.card.cardNo })).toHaveLength(1);
  });
});

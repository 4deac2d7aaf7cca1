/**
 * customerOnboarding's physical card path on the dev server against the sandbox (physical bin
 * 1852379830190366723: B2C holder, initial deposit 50–5000 at creation, card un_activated after
 * create): the onboarding waits in awaiting_delivery for the `activateCard` Update, then runs the
 * activation child, by activation code (PIN sealed with the merchant public key) or by work order;
 * or activates at once when the request comes with the input. A bad Update is refused by the
 * validator while the onboarding keeps waiting; a bad input is refused before any provider call.
 *
 * The worker's provider client is wrapped to record the calls it makes, and the card numbers create
 * card received (the number given to the onboarding must reach the provider through cardIssuance).
 */
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { ProviderClient } from '../../../provider/client';
import { activateOnboardingCard } from '../../../client/onboarding';
import type { B2cCardholder } from '../../../domain/cardholder-data';
import { progressQuery, type OnboardingInput, type OnboardingResult } from '../../../domain/customer-onboarding';
import { activateCardUpdate } from '../../../domain/onboarding-physical';
import { cardEntityWorkflowId, childWorkflowId, onboardingWorkflowId } from '../../../domain/workflow-ids';
import { cardSnapshotQuery } from '../../../domain/card-entity';
import { CARD_BORN_PATCH } from '../../../workflows/card-entity';
import { luhnCheckDigit } from '../../../tools/sandbox/random';
import { b2cHolder as sampleB2c } from '../../fixtures/holders';
import { collectPayloads, exportHistoryBytes } from '../platform/codec/history-scan';
import {
  eventually,
  expectOneActivationWorkOrder,
  FAST_WAIT,
  PHYSICAL_TYPE,
  startCardHarness,
  uploadIdImages,
} from '../support/card-harness';
import { customerRef, failureOf, startOnboardingWorkflow, harnessPerFile } from '../support/harness';

jest.setTimeout(180_000);

const h = harnessPerFile(startCardHarness);
/**
 * Provider calls the worker made (method names), and the card number each create card carried, by
 * merchantOrderNo.
 */
const calls: string[] = [];
const createdWithNumber: Record<string, string | undefined> = {};

/** The worker's provider client, recording its calls (see the file comment). */
function workerProvider(provider: ProviderClient): ProviderClient {
  return new Proxy(provider, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        const request = args[0] as { merchantOrderNo?: string; cardNumber?: string } | undefined;
        if (prop === 'createCard' && request?.merchantOrderNo)
          createdWithNumber[request.merchantOrderNo] = request.cardNumber;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A lifecycle worker whose provider client records its calls. */
function withWorker<T>(fn: () => Promise<T>): Promise<T> {
  return h.withCardWorker(fn, { provider: workerProvider(h.provider) });
}

/** A fresh number printed on a card of the physical bin (valid check digit). */
function printedCardNumber(): string {
  const body = `522981${Math.floor(Math.random() * 1e9)
    .toString()
    .padStart(9, '0')}`;
  return body + luhnCheckDigit(body);
}

/**
 * B2C holder data the sandbox approves; its ID images uploaded first (idFrontId, idBackId,
 * idHoldId).
 */
async function b2cHolder(): Promise<B2cCardholder> {
  const fileIds = await uploadIdImages(h.provider);
  const unique = randomUUID().replace(/-/g, '').slice(0, 10);
  return sampleB2c({ email: `grace+${unique}@example.com`, idNumber: `P${unique}`, fileIds });
}

/** A physical onboarding input with a fresh printed card number of the bin. */
async function physicalInput(label: string, extra: Partial<OnboardingInput> = {}): Promise<OnboardingInput> {
  const ref = customerRef(label);
  const cardNumber = printedCardNumber();
  return {
    customerRef: ref,
    cardTypeId: PHYSICAL_TYPE,
    holder: await b2cHolder(),
    cardNumber,
    initialDeposit: '50',
    wait: FAST_WAIT,
    ...extra,
  };
}

const start = (input: OnboardingInput) => startOnboardingWorkflow(h, input);

const awaitingDelivery = (handle: WorkflowHandle) =>
  eventually(
    () => handle.query(progressQuery),
    (p) => p.stage === 'awaiting_delivery' || p.stage === 'failed',
    'awaiting_delivery',
    60_000,
  );

/** Every payload of a workflow's history as text (inputs, updates, results). */
async function historyText(workflowId: string): Promise<string> {
  const bytes = await exportHistoryBytes(h.client, workflowId);
  return collectPayloads(temporal.api.history.v1.History.decode(bytes))
    .map((p) => Buffer.from(p.data ?? []).toString('utf8'))
    .join('\n');
}

it('activation code: creates the card un_activated, waits for activateCard, activates with the sealed PIN; no clear PIN in history', async () => {
  const input = await physicalInput('phys-code');
  const pin = '482915';
  const { result, progress, code } = await withWorker(async () => {
    const handle = await start(input);
    const waiting = await awaitingDelivery(handle);
    expect(waiting).toMatchObject({
      stage: 'awaiting_delivery',
      activation: { workflowId: childWorkflowId(handle.workflowId, 'activation'), deadlineAt: expect.any(Number) },
    });
    expect((await h.provider.getCardInfo({ cardNo: waiting.cardNo! })).status).toBe('un_activated');
    const issued = await h.helper<{ activationCode: string }>('issueActivationCode', { cardNo: waiting.cardNo });
    // The backend's call: the client seals the PIN with the merchant public key before sending.
    const accepted = await activateOnboardingCard(
      h.client,
      input.customerRef,
      { route: 'activation_code', pin, noPinPaymentAmount: '300' },
      { merchantPublicKey: h.sandbox.keys.merchant.publicKey },
    );
    expect(accepted).toEqual({
      route: 'activation_code',
      activationWorkflowId: childWorkflowId(handle.workflowId, 'activation'),
    });
    const done = (await handle.result()) as OnboardingResult;
    // The card's workflow, born with the card un_activated, learns the activation from its result.
    const entity = h.client.workflow.getHandle(cardEntityWorkflowId(done.card.cardNo));
    await eventually(
      () => entity.query(cardSnapshotQuery),
      (s) => s.status === 'Normal',
      'the card workflow learns the activation',
    );
    const patches = (await entity.fetchHistory()).events!.flatMap((e) => {
      const details = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
      return details ? [(JSON.parse(Buffer.from(details).toString('utf8')) as { id: string }).id] : [];
    });
    // Born on this code: the birth's marker covers learning the activation.
    expect(patches).toEqual([CARD_BORN_PATCH]);
    return { result: done, progress: await handle.query(progressQuery), code: issued.activationCode };
  });
  expect(progress.stages.map((s) => s.stage)).toEqual([
    'validating',
    'cardholder_review',
    'creating_card',
    'awaiting_delivery',
    'activating',
    'completed',
  ]);
  expect(result.card).toMatchObject({ cardStatus: 'Normal', initialDeposit: { amount: '50.00', fee: '1.60' } });
  expect(result.activation).toMatchObject({ route: 'activation_code' });
  // The number given to the onboarding reached create card through cardIssuance.
  expect(createdWithNumber[result.card.merchantOrderNo]).toBe(input.cardNumber);
  const card = await h.provider.getCardInfo({ cardNo: result.card.cardNo });
  expect(card.status).toBe('Normal');
  expect(card.noPinPaymentAmount).toMatch(/^300(\.0+)?$/);
  const text =
    (await historyText(onboardingWorkflowId(input.customerRef))) +
    (await historyText(childWorkflowId(onboardingWorkflowId(input.customerRef), 'activation')));
  expect(text).toContain('sealedPin');
  expect(text).not.toContain(pin);
  expect(text).not.toContain(code);
});

it('work order: a bad activateCard is refused by the validator naming the field, the onboarding keeps waiting, then a work order activates the card', async () => {
  const input = await physicalInput('phys-work');
  const result = await withWorker(async () => {
    const handle = await start(input);
    await awaitingDelivery(handle);
    const refused = await handle
      .executeUpdate(activateCardUpdate, { args: [{ route: 'work_order', workOrder: { files: [] } }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({
      type: 'InvalidInput',
      message: expect.stringContaining('workOrder.files: must list at least one supporting file'),
    });
    const clearPin = await handle
      .executeUpdate(activateCardUpdate, { args: [{ route: 'activation_code', sealedPin: '123456' }] })
      .catch((e: unknown) => e);
    expect((clearPin as WorkflowUpdateFailedError).cause?.message).toContain('sealedPin: looks like a clear PIN');
    expect((await handle.query(progressQuery)).stage).toBe('awaiting_delivery');
    expect((await handle.describe()).status.name).toBe('RUNNING');

    await activateOnboardingCard(h.client, input.customerRef, {
      route: 'work_order',
      workOrder: { content: 'Card received', files: [{ ref: 'delivery-note.pdf' }] },
    });
    const again = await handle
      .executeUpdate(activateCardUpdate, {
        args: [{ route: 'work_order', workOrder: { files: [{ ref: 'card-photo.png' }] } }],
      })
      .catch((e: unknown) => e);
    expect((again as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'ActivationNotExpected' });
    return (await handle.result()) as OnboardingResult;
  });
  expect(result.activation).toMatchObject({ route: 'work_order', workOrderNo: expect.any(String) });
  expect(result.card.cardStatus).toBe('Normal');
  await expectOneActivationWorkOrder(h.provider, result.card.cardNo);
});

it('activation given with the input: no wait for delivery, activates as soon as the code arrives; a later activateCard is refused', async () => {
  const input = await physicalInput('phys-upfront');
  input.activation = { route: 'activation_code', sealedPin: h.seal('135790') };
  const { result, progress } = await withWorker(async () => {
    const handle = await start(input);
    const activating = await eventually(
      () => handle.query(progressQuery),
      (p) => p.stage === 'activating' || p.stage === 'failed',
      'activating',
      60_000,
    );
    expect(activating.activation).toMatchObject({ route: 'activation_code' });
    const refused = await handle
      .executeUpdate(activateCardUpdate, { args: [{ route: 'activation_code', sealedPin: h.seal('111111') }] })
      .catch((e: unknown) => e);
    expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'ActivationNotExpected' });
    await h.helper('issueActivationCode', { cardNo: activating.cardNo });
    return { result: (await handle.result()) as OnboardingResult, progress: await handle.query(progressQuery) };
  });
  expect(progress.stages.map((s) => s.stage)).toEqual([
    'validating',
    'cardholder_review',
    'creating_card',
    'activating',
    'completed',
  ]);
  expect(result.card.cardStatus).toBe('Normal');
  expect((await h.provider.getCardInfo({ cardNo: result.card.cardNo })).status).toBe('Normal');
});

it('a bad input is refused before any provider call, naming each field', async () => {
  const ref = customerRef('phys-bad');
  calls.length = 0;
  const failure = await withWorker(async () => {
    const handle = await start({
      customerRef: ref,
      cardTypeId: PHYSICAL_TYPE,
      cardNumber: '5229-8100',
      initialDeposit: '50',
      activation: { route: 'activation_code', sealedPin: '123456' },
      funding: { source: 'on_chain', coinKey: 'USDT_TRC20' },
      wait: FAST_WAIT,
    });
    return failureOf(handle);
  });
  expect(failure).toMatchObject({ type: 'InvalidInput' });
  for (const field of ['cardNumber', 'activation.sealedPin', 'funding.expectedAmount'])
    expect(failure?.message).toContain(`${field}:`);
  expect(calls).toEqual([]);
});

it('a physical card type without cardNumber fails with only reads made: no holder, no card', async () => {
  const input = await physicalInput('phys-nonumber');
  delete input.cardNumber;
  calls.length = 0;
  const failure = await withWorker(async () => {
    const handle = await start(input);
    return failureOf(handle);
  });
  expect(failure).toMatchObject({
    type: 'NotEligible',
    message: expect.stringContaining('cardNumber: is required for a physical card'),
  });
  expect(calls.filter((name) => !/^(list|get|query)/.test(name))).toEqual([]);
  expect(
    (await h.provider.queryCardholders({ pageNum: 1, pageSize: 10, email: (input.holder as B2cCardholder).email }))
      .records,
  ).toHaveLength(0);
});

it('no activateCard before the delivery deadline: fails with DeliveryDeadlineExceeded, the card stays un_activated', async () => {
  const input = await physicalInput('phys-late', { deliveryDeadlineMs: 1_500 });
  const { failure, progress } = await withWorker(async () => {
    const handle = await start(input);
    const cause = await failureOf(handle);
    return { failure: cause, progress: await handle.query(progressQuery) };
  });
  expect(failure).toMatchObject({
    type: 'DeliveryDeadlineExceeded',
    message: expect.stringContaining('stays un_activated'),
  });
  expect(progress.stages.map((s) => s.stage)).toEqual([
    'validating',
    'cardholder_review',
    'creating_card',
    'awaiting_delivery',
    'failed',
  ]);
  expect((await h.provider.getCardInfo({ cardNo: progress.cardNo! })).status).toBe('un_activated');
});

/**
 * physicalCardActivation on the dev server against the sandbox: the activation-code route (the
 * code arrives as a card_3ds webhook, is decrypted inside the activity; neither it nor the PIN is
 * in history), the work-order route (uploaded and referenced files), a failed work order ending
 * with the provider's description, and a dropped activation response activating once.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { cmp } from '../../../provider/money';
import { type PhysicalCardActivationResult } from '../../../domain/physical-card-activation';
import { collectPayloads, exportHistoryBytes } from '../platform/codec/history-scan';
import { temporal } from '@temporalio/proto';
import {
  eventually,
  expectOneActivationWorkOrder,
  FAST_WAIT,
  physicalCard,
  startCardHarness,
} from '../support/card-harness';
import { harnessPerFile } from '../support/harness';
import { physicalCardActivationWorkflow } from '../../../domain/workflows';
import { activationWorkflowId } from '../../../domain/workflow-ids';

const h = harnessPerFile(startCardHarness);

/** Every payload of the workflow's history (inputs, results, signals, activity I/O) as text. */
async function historyText(workflowId: string): Promise<string> {
  const bytes = await exportHistoryBytes(h.client, workflowId);
  const payloads = collectPayloads(temporal.api.history.v1.History.decode(bytes));
  return payloads.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n') + bytes.toString('latin1');
}

function start(workflowId: string, args: Record<string, unknown>) {
  return h.client.workflow.start('physicalCardActivation', {
    taskQueue: h.taskQueue,
    workflowId,
    args: [{ wait: FAST_WAIT, ...args }],
  });
}

it('route activation_code: waits for the code, activates with the sealed PIN, card Normal; no clear PIN or code in history', async () => {
  const { cardNo } = await physicalCard(h.provider);
  const pin = '482915';
  const workflowId = activationWorkflowId(cardNo);
  const sealedPin = h.seal(pin);
  const result = await h.withCardWorker(async () => {
    const handle = await start(workflowId, { cardNo, route: 'activation_code', sealedPin, noPinPaymentAmount: '300' });
    await eventually(
      () => handle.query<{ stage: string }>('activationStatus'),
      (s) => s.stage === 'awaiting_code',
      'awaiting_code',
    );
    const issued = await h.helper<{ activationCode: string }>('issueActivationCode', { cardNo });
    const value = (await handle.result()) as PhysicalCardActivationResult;
    return { value, code: issued.activationCode };
  });
  expect(result.value).toMatchObject({
    cardNo,
    route: 'activation_code',
    cardStatus: 'Normal',
    merchantOrderNo: physicalCardActivationWorkflow.orderKeys(workflowId).activate,
  });
  const card = await h.provider.getCardInfo({ cardNo });
  expect(card.status).toBe('Normal');
  expect(cmp(card.noPinPaymentAmount, '300')).toBe(0);
  const text = await historyText(workflowId);
  expect(text).toContain(cardNo);
  expect(text).toContain(sealedPin); // the PIN is in history, sealed
  expect(text).not.toContain(pin);
  expect(text).not.toContain(result.code);
});

it('route activation_code: a dropped activation response (committed) activates once and completes', async () => {
  const { cardNo } = await physicalCard(h.provider);
  await h.helper('issueActivationCode', { cardNo });
  h.sandbox.setFaults({ dropResponseRate: 1, operations: ['activatePhysicalCard'], remaining: 1 });
  try {
    const result = await h.withCardWorker(async () => {
      const handle = await start(activationWorkflowId(cardNo), {
        cardNo,
        route: 'activation_code',
        sealedPin: h.seal('135790'),
      });
      return handle.result();
    });
    expect(result).toMatchObject({ cardStatus: 'Normal' });
    expect(h.sandbox.faults().remaining).toBe(0); // the drop fired
  } finally {
    h.sandbox.setFaults({ reset: true });
  }
  expect((await h.provider.getCardInfo({ cardNo })).status).toBe('Normal');
});

it('route activation_code: a clear PIN in place of the sealed one is refused before anything is sent', async () => {
  const { cardNo } = await physicalCard(h.provider);
  const error = await h.withCardWorker(async () => {
    const handle = await start(`activation-clear-${cardNo}`, { cardNo, route: 'activation_code', sealedPin: '123456' });
    return handle.result().catch((e: unknown) => e);
  });
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'InvalidInput' });
  expect(String((error as WorkflowFailedError).cause?.message)).toContain('sealedPin');
  expect((await h.provider.getCardInfo({ cardNo })).status).toBe('un_activated');
});

it('route work_order: uploads referenced files, submits CARD_ACTIVE with the card as target, waits for success, card Normal', async () => {
  const { cardNo } = await physicalCard(h.provider);
  const uploaded = await h.provider.uploadFile({
    category: 'card',
    file: {
      filename: 'id.png',
      contentType: 'image/png',
      data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9]),
    },
  });
  const workflowId = activationWorkflowId(cardNo);
  h.sandbox.setFaults({ dropResponseRate: 1, operations: ['submitWorkOrder'], remaining: 1 });
  let result: PhysicalCardActivationResult;
  try {
    result = await h.withCardWorker(async () => {
      const handle = await start(workflowId, {
        cardNo,
        route: 'work_order',
        workOrder: {
          content: 'Card received by the holder',
          files: [{ fileId: uploaded.fileId }, { ref: 'delivery-note.pdf' }],
        },
      });
      return (await handle.result()) as PhysicalCardActivationResult;
    });
    expect(h.sandbox.faults().remaining).toBe(0); // the drop fired
  } finally {
    h.sandbox.setFaults({ reset: true });
  }
  expect(result).toMatchObject({ cardNo, route: 'work_order', cardStatus: 'Normal' });
  expect(result.fileIds).toHaveLength(2);
  expect(result.fileIds?.[0]).toBe(uploaded.fileId);
  // The dropped submit was committed once; the retry found it instead of submitting again.
  await expectOneActivationWorkOrder(h.provider, cardNo, {
    merchantOrderNo: physicalCardActivationWorkflow.orderKeys(workflowId).workOrder,
  });
  expect((await h.provider.getCardInfo({ cardNo })).status).toBe('Normal');
});

it('route work_order: a failed work order ends the workflow with the provider description; the card stays un_activated', async () => {
  const { cardNo } = await physicalCard(h.provider);
  const workflowId = activationWorkflowId(cardNo);
  const merchantOrderNo = physicalCardActivationWorkflow.orderKeys(workflowId).workOrder;
  const saved = h.sandbox.delays.workOrderMs;
  h.sandbox.delays.workOrderMs = 10 * 60_000; // hold the work order until decided below
  try {
    const error = await h.withCardWorker(async () => {
      const handle = await start(workflowId, {
        cardNo,
        route: 'work_order',
        workOrder: { files: [{ ref: 'card-photo.png' }] },
      });
      await eventually(
        () => handle.query<{ stage: string }>('activationStatus'),
        (s) => s.stage === 'awaiting_work_order',
        'awaiting_work_order',
      );
      await h.helper('decideWorkOrder', {
        orderNo: merchantOrderNo,
        outcome: 'fail',
        description: 'Photo of the card is unreadable',
      });
      return handle.result().catch((e: unknown) => e);
    });
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const cause = (error as WorkflowFailedError).cause;
    expect(cause).toMatchObject({ type: 'OperationFailed' });
    expect(cause?.message).toContain('Photo of the card is unreadable');
  } finally {
    h.sandbox.delays.workOrderMs = saved;
  }
  expect((await h.provider.getCardInfo({ cardNo })).status).toBe('un_activated');
});

/** Probes ten minutes apart: within a test only a webhook can end these waits. */
const WEBHOOKS_ONLY = {
  ...FAST_WAIT,
  review: {
    firstPollMs: 600_000,
    attemptMs: 1,
    heartbeatTimeoutMs: 1_200_000,
    retryInitialIntervalMs: 600_000,
    retryMaxIntervalMs: 600_000,
  },
};

it('the activation code (card_3ds) and the work order decision (work) end their waits by webhook, not only by probe', async () => {
  const byCode = await physicalCard(h.provider);
  const byOrder = await physicalCard(h.provider);
  const results = await h.withCardWorker(async () => {
    const code = await start(activationWorkflowId(byCode.cardNo), {
      cardNo: byCode.cardNo,
      route: 'activation_code',
      sealedPin: h.seal('246810'),
      wait: WEBHOOKS_ONLY,
    });
    const order = await start(activationWorkflowId(byOrder.cardNo), {
      cardNo: byOrder.cardNo,
      route: 'work_order',
      workOrder: { files: [await h.fileStore.put(Buffer.from('%PDF-1.4\n% note\n'), 'note.pdf')] },
      wait: WEBHOOKS_ONLY,
    });
    await eventually(
      () => code.query<{ stage: string }>('activationStatus'),
      (s) => s.stage === 'awaiting_code',
      'awaiting_code',
    );
    await h.helper('issueActivationCode', { cardNo: byCode.cardNo });
    return Promise.all([code.result(), order.result()]) as Promise<PhysicalCardActivationResult[]>;
  });
  expect(results.map((r) => [r.route, r.cardStatus])).toEqual([
    ['activation_code', 'Normal'],
    ['work_order', 'Normal'],
  ]);
});

/**
 * Card operations on the dev server: freeze → unfreeze as workflows (one of them through a dropped
 * response), a sealed PIN change, and the per-card entity: serialized validated Updates, a
 * repeated request answered once, authorization events recorded, continue-as-new with its state,
 * the end of the workflow when a high-risk purchase gets the card cancelled, and a late webhook
 * (retried after the receiver was down) that must not roll the card's status back.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { CardOperationOutcome } from '../../../domain/card-operations';
import {
  cardSnapshotQuery,
  depositUpdate,
  freezeUpdate,
  refreshUpdate,
  unfreezeUpdate,
  type CardEntityResult,
} from '../../../domain/card-entity';
import { collectPayloads, exportHistoryBytes } from '../platform/codec/history-scan';
import { cmp } from '../../../provider/money';
import {
  activePhysicalCard,
  eventually,
  FAST_WAIT,
  SUBSCRIPTION_TYPE,
  startCardHarness,
  virtualCard,
} from '../support/card-harness';
import { harnessPerFile } from '../support/harness';
import { cardEntityWorkflowId } from '../../../domain/workflow-ids';

const h = harnessPerFile(startCardHarness);

function run(type: string, workflowId: string, args: Record<string, unknown>) {
  return h.client.workflow.execute(type, {
    taskQueue: h.taskQueue,
    workflowId,
    args: [{ wait: FAST_WAIT, ...args }],
  }) as Promise<CardOperationOutcome>;
}

async function records(cardNo: string, type: 'Freeze' | 'UnFreeze' | 'update_pin') {
  return (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, cardNo, type })).records;
}

it('freeze → unfreeze as workflows, each waiting for its record; a dropped freeze response freezes once', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '20' });
  h.sandbox.setFaults({ dropResponseRate: 1, operations: ['freezeCard'], remaining: 1 });
  try {
    const frozen = await h.withCardWorker(() =>
      run('cardFreeze', `freeze-${cardNo}`, { cardNo, clientRemark: 'lost wallet' }),
    );
    expect(frozen).toMatchObject({ cardNo, kind: 'freeze', status: 'success', cardStatus: 'Freeze' });
    expect(h.sandbox.faults().remaining).toBe(0);
  } finally {
    h.sandbox.setFaults({ reset: true });
  }
  const unfrozen = await h.withCardWorker(() => run('cardUnfreeze', `unfreeze-${cardNo}`, { cardNo }));
  expect(unfrozen).toMatchObject({ kind: 'unfreeze', status: 'success', cardStatus: 'Normal' });
  expect(await records(cardNo, 'Freeze')).toHaveLength(1);
  expect(await records(cardNo, 'UnFreeze')).toHaveLength(1);
  // Unfreezing a Normal card is refused before anything is sent.
  const refused = await h.withCardWorker(() =>
    run('cardUnfreeze', `unfreeze-again-${cardNo}`, { cardNo }).catch((e: unknown) => e),
  );
  expect((refused as { cause?: { type?: string } }).cause).toMatchObject({ type: 'OperationNotAllowed' });
  expect(await records(cardNo, 'UnFreeze')).toHaveLength(1);
});

it('cardPinUpdate changes a physical card PIN from a sealed PIN; the clear PIN is not in history', async () => {
  const { cardNo } = await activePhysicalCard(h);
  const workflowId = `pin-${cardNo}`;
  const outcome = await h.withCardWorker(() =>
    run('cardPinUpdate', workflowId, { cardNo, sealedPin: h.seal('907153') }),
  );
  expect(outcome).toMatchObject({ kind: 'updatePin', status: 'success' });
  expect(await records(cardNo, 'update_pin')).toHaveLength(1);
  const payloads = collectPayloads(
    temporal.api.history.v1.History.decode(await exportHistoryBytes(h.client, workflowId)),
  );
  const text = payloads.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n');
  expect(text).toContain(cardNo);
  expect(text).not.toContain('907153');
});

it('card entity: serialized validated updates, a repeated request answered once, auth events recorded, ends when a high-risk purchase cancels the card', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '50' });
  const result = await h.withCardWorker(async () => {
    const handle = await h.client.workflow.start('cardEntity', {
      taskQueue: h.taskQueue,
      workflowId: cardEntityWorkflowId(cardNo),
      args: [{ cardNo, wait: FAST_WAIT }],
    });
    // Two updates sent together run one after the other.
    const [frozen, again] = await Promise.all([
      handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'r1' }] }),
      handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'r1' }] }),
    ]);
    expect(frozen).toMatchObject({ kind: 'freeze', cardStatus: 'Freeze' });
    expect(again.merchantOrderNo).toBe(frozen.merchantOrderNo);
    const refused = await handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'r2' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'OperationNotAllowed' });
    const badId = await handle
      .executeUpdate(unfreezeUpdate, { args: [{ requestId: 'no spaces' }] })
      .catch((e: unknown) => e);
    expect((badId as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'InvalidInput' });
    await handle.executeUpdate(unfreezeUpdate, { args: [{ requestId: 'r3' }] });
    const deposited = await handle.executeUpdate(depositUpdate, {
      args: [{ requestId: 'd1', amount: '10', cardTypeId: SUBSCRIPTION_TYPE }],
    });
    expect(deposited).toMatchObject({ kind: 'deposit', amount: '10' });
    expect(cmp(deposited.balance!.amount, '60')).toBe(0);

    await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '12.50', merchantName: 'Coffee Shop' });
    const seen = await eventually(
      () => handle.query(cardSnapshotQuery),
      (s) => s.authorizations.some((a) => a.status === 'succeed'),
      'the authorization webhook',
    );
    expect(seen.authorizations[0]).toMatchObject({ authorizedAmount: '12.50', merchantName: 'Coffee Shop' });
    const snapshot = await handle.executeUpdate(refreshUpdate);
    expect(snapshot).toMatchObject({ status: 'Normal', cancelled: false });

    await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '1', merchantName: 'Binance' });
    return (await handle.result()) as CardEntityResult;
  });
  expect(result).toMatchObject({ cardNo, status: 'cancel' });
  expect(result.reason).toContain('high-risk');
  expect(result.authorizationCount).toBeGreaterThanOrEqual(2);
  expect(await records(cardNo, 'Freeze')).toHaveLength(1);
  expect((await h.provider.getCardInfo({ cardNo })).status).toBe('cancel');
});

it('card entity continues as new with its state; a request repeated after it sends nothing new', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '20' });
  await h.withCardWorker(async () => {
    const handle = await h.client.workflow.start('cardEntity', {
      taskQueue: h.taskQueue,
      workflowId: cardEntityWorkflowId(cardNo),
      args: [{ cardNo, wait: FAST_WAIT, maxHistoryEvents: 25 }],
    });
    const first = await handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'a1' }] });
    await handle.executeUpdate(unfreezeUpdate, { args: [{ requestId: 'a2' }] });
    await handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'a3' }] });
    const later = await eventually(
      () => h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)).query(cardSnapshotQuery),
      (s) => s.run >= 2,
      'continue-as-new',
    );
    expect(later.status).toBe('Freeze');
    const latest = h.client.workflow.getHandle(cardEntityWorkflowId(cardNo));
    const repeated = await latest.executeUpdate(freezeUpdate, { args: [{ requestId: 'a1' }] });
    expect(repeated.merchantOrderNo).toBe(first.merchantOrderNo);
    await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
    const end = (await latest.result()) as CardEntityResult;
    expect(end).toMatchObject({ status: 'cancel' });
    expect(end.runs).toBeGreaterThanOrEqual(2);
  });
  expect(await records(cardNo, 'Freeze')).toHaveLength(2);
});

it('card entity: a Freeze success retried after the unfreeze (the receiver was down) leaves the card Normal, across continue-as-new', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '20' });
  const receiverUrl = h.receiver!.url;
  await h.withCardWorker(async () => {
    const handle = await h.client.workflow.start('cardEntity', {
      taskQueue: h.taskQueue,
      workflowId: cardEntityWorkflowId(cardNo),
      args: [{ cardNo, wait: FAST_WAIT, maxHistoryEvents: 25 }],
    });
    // The receiver is unreachable: the entity learns both outcomes by polling, the provider keeps
    // the webhooks to retry.
    h.sandbox.setWebhookUrl(await closedPortUrl());
    try {
      await handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'late-f' }] });
      await handle.executeUpdate(unfreezeUpdate, { args: [{ requestId: 'late-u' }] });
    } finally {
      h.sandbox.setWebhookUrl(receiverUrl);
    }
    const latest = h.client.workflow.getHandle(cardEntityWorkflowId(cardNo));
    await eventually(
      () => latest.query(cardSnapshotQuery),
      (s) => s.run >= 2,
      'continue-as-new',
    );
    expect((await h.provider.getCardInfo({ cardNo })).status).toBe('Normal');

    const freezeSuccess = h.sandbox.deliveries
      .log()
      .find(
        (d) =>
          d.category === 'card_transaction' &&
          d.payload.cardNo === cardNo &&
          d.payload.type === 'Freeze' &&
          d.payload.status === 'success',
      );
    expect(freezeSuccess?.status).not.toBe('delivered');
    const resent = await h.sandbox.deliveries.resend(freezeSuccess!.requestId);
    expect(resent?.status).toBe('delivered');
    // The signal reached the current run and a workflow task has handled it.
    await eventually(
      async () => {
        const { events } = await latest.fetchHistory();
        const types = (events ?? []).map((e) => e.eventType);
        const signalled = types.lastIndexOf(temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
        return (
          signalled >= 0 &&
          types.indexOf(temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, signalled) > signalled
        );
      },
      (handled) => handled,
      'the retried webhook handled',
    );
    expect(await latest.query(cardSnapshotQuery)).toMatchObject({ status: 'Normal' });
    await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
    await latest.result();
  });
});

/** A loopback URL nothing listens on (a port just released), so deliveries are refused. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/webhooks`;
}

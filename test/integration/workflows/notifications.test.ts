/**
 * Notifications to the merchant's backend on the dev server, a real HTTP server standing in for the
 * backend (test/support/notification-backend.ts): every event type the workflows emit (onboarding
 * stage changes and results, transfers, fundings, reconciliation findings) arrives with one id per
 * event and a signature the client's constructEvent verifies, also when the backend answers 500 for
 * a while; a workflow's events arrive in the order it emitted them. What the window cannot deliver
 * is recorded, listed by `cardflow events list` and delivered by `cardflow events resend <id>` with
 * its id unchanged. A worker without a URL emits nothing. A card no client touched tells that it
 * exists, its authorization, settlement, block and cancel once each, also when webhooks come again
 * and out of order, and relays a 3DS code its history never holds; its later runs (continue-as-new)
 * keep telling; without a URL it schedules nothing more. A card cardflow issues is announced once
 * as card.issued with its customer, by the card workflow the createCard activity started with the
 * input a client's first call would give it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cmp } from '../../../provider/money';
import { decryptSensitive } from '../../../provider/sensitive';
import { refreshCard } from '../../../client/card-entity';
import { cardSnapshotQuery, freezeUpdate, unfreezeUpdate, type CardEntityResult } from '../../../domain/card-entity';
import { cardEntityWorkflowId, onboardingWorkflowId } from '../../../domain/workflow-ids';
import { runReconciliation } from '../../../client/reconciliation';
import { progressQuery } from '../../../domain/customer-onboarding';
import { fundingStatusQuery } from '../../../domain/wallet-funding';
import { cardIssuedEventId, NotificationTypes, type NotificationEvent } from '../../../domain/notifications';
import { openFileUndeliveredStore, type UndeliveredStore } from '../../../platform/notifications/store';
import { startNotificationBackend, type NotificationBackend } from '../../support/notification-backend';
import { runCliOn } from '../../support/run-cli';
import { decodedHistoryText, exportHistoryBytes, foundIn } from '../platform/codec/history-scan';
import {
  CARD_TYPES,
  eventually,
  FAST_WAIT,
  startCardHarness,
  SUBSCRIPTION_TYPE,
  virtualCard,
} from '../support/card-harness';
import { b2bOnboarding, deliverAgain, harnessPerFile, startOnboardingWorkflow } from '../support/harness';
import { testTemporalServer } from '../support/temporal-env';
import { defaultPayloadConverter } from '@temporalio/common';
import { cardEntityInputFor } from '../../../domain/card-entity-start';
import { CardflowCustomerRef } from '../../../domain/search-attributes';
import type { CardIssuanceResult } from '../../../domain/card-issuance';

jest.setTimeout(180_000);

const SECRET = 'notify-test-secret-0123456789abcdef0123';
const h = harnessPerFile(startCardHarness);
let backend: NotificationBackend;
let store: UndeliveredStore;
let storeDir: string;
let margin: string;

beforeAll(async () => {
  backend = await startNotificationBackend();
  storeDir = await mkdtemp(join(tmpdir(), 'cardflow-notifications-'));
  store = await openFileUndeliveredStore(storeDir);
  margin = (await h.provider.createSharedAccount({ accountName: `Notify ${randomUUID().slice(0, 6)}` })).accountId;
  walletId = (await h.provider.getAccountInfo()).find(
    (a) => a.accountType === 'WALLET' && a.currency === 'USD',
  )!.accountId;
});
afterAll(async () => {
  await backend?.close();
});

const id = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

/**
 * Runs `fn` while a worker with notifications to the backend polls (`windowMs`: the delivery
 * window).
 */
function withNotifyingWorker<T>(fn: () => Promise<T>, windowMs = 120_000): Promise<T> {
  return h.withCardWorker(fn, {
    notifications: {
      target: { url: backend.url, secrets: [SECRET], format: 'cardflow' },
      deliveryWindowMs: windowMs,
      store,
    },
  });
}

function transfer(workflowId: string, amount: string) {
  return h.client.workflow.execute('fundTransfer', {
    taskQueue: h.taskQueue,
    workflowId,
    args: [{ type: 'TRANSFER', amount, payerAccountId: walletId, payeeAccountId: margin, wait: FAST_WAIT }],
  });
}
let walletId: string;

/** The delivered events of one workflow, first delivery of each id only, in arrival order. */
function eventsOf(workflowId: string, delivered: NotificationEvent[]): NotificationEvent[] {
  const seen = new Set<string>();
  return delivered.filter((e) => e.workflowId === workflowId && !seen.has(e.id) && seen.add(e.id));
}

it('every event type arrives once per event id, signed, in order per workflow, through a backend answering 500 for a while', async () => {
  const since = Date.now() - 1000;
  backend.failNext(4);
  const ids = {
    transfer: id('notify-transfer'),
    refused: id('notify-refused'),
    funding: id('notify-funding'),
    expired: id('notify-expired'),
    reconcile: id('notify-reconcile'),
  };
  const onboarding = b2bOnboarding('notify');
  const notEligible = b2bOnboarding('notify', { initialDeposit: '99999999' });
  // A card made outside cardflow: reconciliation reports its order as external.
  await virtualCard(h.provider, { deposit: '5' });

  await withNotifyingWorker(async () => {
    await transfer(ids.transfer, '5');
    await expect(transfer(ids.refused, '999999999')).rejects.toThrow();
    const funding = await h.client.workflow.start('walletFunding', {
      taskQueue: h.taskQueue,
      workflowId: ids.funding,
      args: [{ coinKey: 'USDT_TRC20', expectedAmount: '20', wait: FAST_WAIT }],
    });
    await eventually(
      () => funding.query(fundingStatusQuery),
      (s) => s.stage === 'awaiting_deposit',
      'awaiting_deposit',
    );
    await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount: '20' });
    await funding.result();
    await expect(
      h.client.workflow.execute('walletFunding', {
        taskQueue: h.taskQueue,
        workflowId: ids.expired,
        // A transaction that never comes: the address's earlier deposit is not it.
        args: [{ coinKey: 'USDT_TRC20', deadlineMs: 2_000, txHash: 'e'.repeat(64), wait: FAST_WAIT }],
      }),
    ).rejects.toThrow();
    const onboarded = await startOnboardingWorkflow(h, onboarding);
    await onboarded.result();
    const refused = await startOnboardingWorkflow(h, notEligible);
    await expect(refused.result()).rejects.toThrow();
    expect((await refused.query(progressQuery)).stage).toBe('failed');
    await runReconciliation(h.client, { since }, { taskQueue: h.taskQueue, workflowId: ids.reconcile });
  });

  // Every request that was taken verifies; the 500s were retried.
  expect(backend.received.filter((r) => r.status === 500)).toHaveLength(4);
  const delivered = backend.delivered(SECRET);
  // A redelivered id carries the same event.
  const byId = new Map<string, string>();
  for (const event of delivered) {
    const text = JSON.stringify(event);
    expect(byId.get(event.id) ?? text).toBe(text);
    byId.set(event.id, text);
  }

  const types = (workflowId: string) => eventsOf(workflowId, delivered).map((e) => e.type);
  expect(types(ids.transfer)).toEqual([NotificationTypes.transferCompleted]);
  expect(eventsOf(ids.transfer, delivered)[0]!.data).toMatchObject({ amount: '5', payeeAccountId: margin });
  expect(types(ids.refused)).toEqual([NotificationTypes.transferFailed]);
  expect(types(ids.funding)).toEqual([NotificationTypes.fundingCompleted]);
  expect(eventsOf(ids.funding, delivered)[0]!.data).toMatchObject({ coinKey: 'USDT_TRC20' });
  expect(types(ids.expired)).toEqual([NotificationTypes.fundingFailed]);
  expect(eventsOf(ids.expired, delivered)[0]!.data).toMatchObject({ failure: { type: 'DepositExpired' } });

  const onboardingEvents = eventsOf(onboardingWorkflowId(onboarding.customerRef), delivered);
  expect(onboardingEvents.map((e) => e.type)).toEqual([
    NotificationTypes.onboardingStageChanged,
    NotificationTypes.onboardingCompleted,
  ]);
  expect(onboardingEvents[0]!.data).toMatchObject({ stage: 'cardholder_review', previousStage: 'validating' });
  expect(onboardingEvents[1]!.data).toMatchObject({ customerRef: onboarding.customerRef });
  const failedEvents = eventsOf(onboardingWorkflowId(notEligible.customerRef), delivered);
  expect(failedEvents.map((e) => e.type)).toEqual([NotificationTypes.onboardingFailed]);
  expect(failedEvents[0]!.data).toMatchObject({ stage: 'validating', failure: { type: expect.any(String) } });

  const findings = delivered.filter((e) => e.type === NotificationTypes.reconciliationFindings);
  expect(findings.length).toBeGreaterThan(0);
  expect(findings.every((e) => e.workflowId.startsWith(ids.reconcile))).toBe(true);

  // Every event was delivered; nothing was recorded undeliverable.
  expect(await store.list({ pending: true })).toEqual([]);
  // No card data in any notification: no PAN-like number, no cvv or expiry field.
  for (const r of backend.received) {
    expect(r.body).not.toMatch(/"(cardNumber|cvv|expireDate|validPeriod)"/);
    expect(r.body).not.toMatch(/\b\d{16}\b/);
    expect(r.body).not.toContain(onboarding.holder!.email);
  }
});

it("an operator's cancel of an onboarding waiting in review is told, after its stage change", async () => {
  const input = b2bOnboarding('review.stall');
  const workflowId = onboardingWorkflowId(input.customerRef);
  await withNotifyingWorker(async () => {
    const handle = await startOnboardingWorkflow(h, input);
    await eventually(
      () => handle.query(progressQuery),
      (p) => p.stage === 'cardholder_review',
      'review',
    );
    // The stage change is delivered while the onboarding waits, not held back to its end.
    await eventually(
      () => Promise.resolve(eventsOf(workflowId, backend.delivered(SECRET)).length),
      (n) => n === 1,
      'the stage change',
    );
    await handle.cancel();
    await expect(handle.result()).rejects.toThrow();
  });
  const events = eventsOf(workflowId, backend.delivered(SECRET));
  expect(events.map((e) => e.type)).toEqual([
    NotificationTypes.onboardingStageChanged,
    NotificationTypes.onboardingCancelled,
  ]);
  expect(events[1]!.data).toMatchObject({ customerRef: input.customerRef, stage: 'cardholder_review' });
});

it('an event the window could not deliver is recorded, listed, and delivered by `events resend` with its id', async () => {
  backend.failAll(true);
  const workflowId = id('notify-undelivered');
  await withNotifyingWorker(() => transfer(workflowId, '1'), 3_000);
  const [entry] = (await store.list({ pending: true })).filter((e) => e.workflowId === workflowId);
  expect(entry).toMatchObject({ type: NotificationTypes.transferCompleted, reason: expect.stringMatching(/500/) });

  const temporal = { client: h.client, namespace: testTemporalServer().namespace };
  const env = {
    CARDFLOW_NOTIFY_URL: backend.url,
    CARDFLOW_NOTIFY_SECRET: SECRET,
    CARDFLOW_NOTIFY_DATA_DIR: storeDir,
  };
  const listed = await runCliOn(temporal, ['events', 'list'], { env });
  expect(listed.code).toBe(0);
  expect(listed.out).toContain(entry!.id);

  backend.failAll(false);
  const resent = await runCliOn(temporal, ['events', 'resend', entry!.id], { env });
  expect(resent).toMatchObject({ code: 0, out: `${entry!.id}: delivered (200)` });
  const delivered = eventsOf(workflowId, backend.delivered(SECRET));
  expect(delivered.map((e) => e.id)).toEqual([entry!.id]);
  expect(await store.get(entry!.id)).toMatchObject({ resentAt: expect.any(String) });
  expect((await runCliOn(temporal, ['events', 'list'], { env })).out).not.toContain(entry!.id);
});

it('a worker without a notification URL sends nothing and its workflows schedule no notification activity', async () => {
  const before = backend.received.length;
  const workflowId = id('notify-off');
  // A card's workflow too, through an authorization, a 3DS code, a block and its cancel.
  const cardNo = await virtualCard(h.provider, { deposit: '5' });
  await h.withCardWorker(async () => {
    await transfer(workflowId, '1');
    await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '2' });
    await h.helper('issue3ds', { cardNo, type: 'third_3ds_otp', amount: '2' });
    await h.helper('blockCard', { cardNo, reason: 'Suspected fraud' });
    await h.sandbox.deliveries.idle();
    await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
    await h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)).result();
  });
  expect(backend.received.length).toBe(before);
  for (const checked of [workflowId, cardEntityWorkflowId(cardNo)]) {
    const history = await h.client.workflow.getHandle(checked).fetchHistory();
    const types = (history.events ?? []).flatMap((e) => {
      const name = e.activityTaskScheduledEventAttributes?.activityType?.name;
      return name ? [name] : [];
    });
    expect(types.length).toBeGreaterThan(0);
    expect(types).not.toContain('deliverNotifications');
    expect(types).not.toContain('recordUndelivered');
    expect(types).not.toContain('relayThreeDs');
  }
});

it('an untouched card tells each event once, also repeated and reordered, and relays a 3DS code its history never holds', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '50' });
  const workflowId = cardEntityWorkflowId(cardNo);
  const handle = h.client.workflow.getHandle(workflowId);
  const before = backend.received.length;
  const issued: { tradeNo: string; value: string }[] = [];
  let result: CardEntityResult | undefined;
  let held = '';
  let crossed = '';
  const learned = (tradeNo: string, status: string, what: string) =>
    eventually(
      () => handle.query(cardSnapshotQuery).catch(() => undefined),
      (s) => s?.authorizations.some((a) => a.tradeNo === tradeNo && a.status === status) === true,
      what,
    );
  const hold = async (amount: string, merchantName: string) =>
    (
      await h.helper<{ tradeNo: string }>('authorizeCard', {
        cardNo,
        type: 'auth',
        amount,
        merchantName,
        settle: false,
      })
    ).tradeNo;
  const webhooksOf = (tradeNo: string) =>
    h.sandbox.deliveries.log().filter((d) => d.category === 'card_auth_transaction' && d.payload.tradeNo === tradeNo);

  await withNotifyingWorker(async () => {
    held = await hold('20', 'Book Shop');
    // The hold reaches the workflow before its settlement is made, so both states are told.
    await learned(held, 'authorized', 'the hold, learned by the workflow its webhook started');
    await h.helper('settleAuthorization', { tradeNo: held, settleAmount: '20' });
    await h.sandbox.deliveries.idle();
    await learned(held, 'succeed', 'the settlement');
    // The settlement again, then the authorization it settled (older) again: repeats, told never.
    const deliveries = webhooksOf(held);
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    for (const d of [...deliveries].reverse()) await deliverAgain(h, d);
    // An Update runs after the signals delivered before it, and catches up from the queries
    // (repeats again).
    await refreshCard(h.client, cardNo, { taskQueue: h.taskQueue, wait: FAST_WAIT });

    // A second hold whose two webhooks cross: its settlement reaches the workflow first, the hold
    // after.
    h.sandbox.setWebhookUrl(null);
    try {
      crossed = await hold('5', 'Tea House');
      await h.helper('settleAuthorization', { tradeNo: crossed, settleAmount: '5' });
    } finally {
      h.sandbox.setWebhookUrl(h.receiver!.url);
    }
    const withheld = webhooksOf(crossed);
    expect(withheld.map((d) => [d.status, (d.payload as { status?: string }).status])).toEqual([
      ['no_url', 'authorized'],
      ['no_url', 'succeed'],
    ]);
    for (const d of [...withheld].reverse()) await deliverAgain(h, d);
    await learned(crossed, 'succeed', 'the crossed settlement');

    for (const type of ['third_3ds_otp', 'auth_url'] as const)
      issued.push(await h.helper<{ tradeNo: string; value: string }>('issue3ds', { cardNo, type, amount: '9.99' }));
    for (const { tradeNo } of issued) {
      const event = await eventually(
        () => Promise.resolve(backend.delivered(SECRET).find((e) => e.id === `evt_3ds_${tradeNo}`)),
        (e) => e !== undefined,
        `the 3DS record ${tradeNo} at the backend`,
      );
      // It arrived no later than now, and the code is still good now.
      expect(Date.parse((event!.data as { expiresAt: string }).expiresAt)).toBeGreaterThan(Date.now());
    }

    await h.helper('blockCard', { cardNo, reason: 'Suspected fraud' });
    await eventually(
      () => Promise.resolve(eventsOf(workflowId, backend.delivered(SECRET))),
      (events) => events.some((e) => e.type === NotificationTypes.cardBlocked),
      'card.blocked at the backend',
    );
    await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
    result = (await handle.result()) as CardEntityResult;
  });

  const received = backend.received.slice(before);
  // Every request was taken and verifies (constructEvent checks the signature); each id came once.
  expect(received.every((r) => r.status === 200)).toBe(true);
  const delivered = backend.delivered(SECRET).filter((e) => e.workflowId === workflowId);
  expect(delivered.length).toBe(received.filter((r) => r.body.includes(`"workflowId":"${workflowId}"`)).length);
  const ids = delivered.map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);

  // Each record told once: one event per (kind, tradeNo, status).
  const transactions = delivered.flatMap((e) => (e.type === NotificationTypes.cardTransaction ? [e.data] : []));
  const keys = transactions.map((t) => `${t.kind} ${t.tradeNo} ${t.status}`);
  expect(new Set(keys).size).toBe(keys.length);
  const heldEvents = transactions.filter((t) => t.tradeNo === held);
  expect(heldEvents.map((t) => [t.kind, t.status, t.merchantName])).toEqual([
    ['authorization', 'authorized', 'Book Shop'],
    ['settlement', 'succeed', 'Book Shop'],
  ]);
  expect(heldEvents.every((t) => cmp(t.amount, '20') === 0)).toBe(true);
  // The crossed hold: its settlement, told; the hold that came after it, not (the settlement stands
  // for it).
  expect(transactions.filter((t) => t.tradeNo === crossed).map((t) => [t.kind, t.status, t.merchantName])).toEqual([
    ['settlement', 'succeed', 'Tea House'],
  ]);
  const told = (type: string) => delivered.filter((e) => e.type === type).map((e) => e.data);
  // The card issued, the block and the cancel, nothing else of the card's status (a cancel lifting
  // the block is no unblock).
  expect(
    delivered
      .map((e) => e.type)
      .filter((t) => t !== NotificationTypes.cardTransaction && t !== NotificationTypes.cardThreeDs),
  ).toEqual([NotificationTypes.cardIssued, NotificationTypes.cardBlocked, NotificationTypes.cardCancelled]);
  // A card made outside cardflow is announced once its workflow first read it; no customer is
  // known.
  expect(told(NotificationTypes.cardIssued)).toEqual([{ cardNo, cardTypeId: SUBSCRIPTION_TYPE, cardStatus: 'Normal' }]);
  expect(delivered.find((e) => e.type === NotificationTypes.cardIssued)!.id).toBe(cardIssuedEventId(cardNo));
  expect(told(NotificationTypes.cardBlocked)).toEqual([expect.objectContaining({ cardNo, cardStatus: 'blocked' })]);
  expect(told(NotificationTypes.cardCancelled)).toEqual([
    expect.objectContaining({ cardNo, cardStatus: 'cancel', amountReturned: result!.cancellation!.returnedAmount }),
  ]);
  expect(delivered.at(-1)!.type).toBe(NotificationTypes.cardCancelled);

  // The 3DS codes arrived before they expired, as card.three_ds events of the card's workflow.
  for (const { tradeNo, value } of issued) {
    const [event] = delivered.filter((e) => e.id === `evt_3ds_${tradeNo}`);
    expect(event?.type).toBe(NotificationTypes.cardThreeDs);
    const data = event!.data as { otp?: string; authUrl?: string };
    expect(data.otp ?? data.authUrl).toBe(value);
  }

  // No card data in any event: the card's number, CVV and expiry are nowhere.
  const sensitive = await h.provider.getCardSensitiveData({ cardNo });
  const pan = decryptSensitive(sensitive.cardNumber!, h.sandbox.keys.merchant.privateKey);
  for (const r of received) {
    expect(r.body).not.toMatch(/"(cardNumber|cvv|expireDate|validPeriod)"/);
    expect(r.body).not.toContain(pan);
  }

  // The card workflow's history, every payload decoded (this worker runs without codec keys, so
  // the identity codec): the 3DS records' ids are there, their code and URL are not.
  const bytes = await exportHistoryBytes(h.client, workflowId);
  const decoded = await decodedHistoryText(bytes, { encode: async (p) => p, decode: async (p) => p });
  const values = issued.map((i) => i.value);
  for (const { tradeNo } of issued) expect(decoded.text).toContain(tradeNo);
  expect(foundIn(decoded.text, values)).toEqual([]);
  expect(foundIn(bytes.toString('latin1'), values)).toEqual([]);
});

it("a card's workflow keeps telling after it continues as new: status moves once each, a later authorization, its cancel", async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '20' });
  const workflowId = cardEntityWorkflowId(cardNo);
  let firstRun = '';
  let held = '';
  await withNotifyingWorker(async () => {
    const handle = await h.client.workflow.start('cardEntity', {
      taskQueue: h.taskQueue,
      workflowId,
      // Room for the first read, card.issued and a freeze or two before it continues as new.
      args: [{ cardNo, wait: FAST_WAIT, maxHistoryEvents: 32 }],
    });
    firstRun = handle.firstExecutionRunId;
    // The first status the entity learns (its first read) is no move: the freezes below are.
    await eventually(
      () => handle.query(cardSnapshotQuery),
      (s) => s.status === 'Normal',
      'the first read',
    );
    await handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'n1' }] });
    await handle.executeUpdate(unfreezeUpdate, { args: [{ requestId: 'n2' }] });
    await handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'n3' }] });
    await handle.executeUpdate(unfreezeUpdate, { args: [{ requestId: 'n4' }] });
    const latest = h.client.workflow.getHandle(workflowId);
    await eventually(
      () => latest.query(cardSnapshotQuery),
      (s) => s.run >= 2,
      'continue-as-new',
    );
    held = (await h.helper<{ tradeNo: string }>('authorizeCard', { cardNo, type: 'auth', amount: '3', settle: false }))
      .tradeNo;
    await h.sandbox.deliveries.idle();
    await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
    await latest.result();
  });
  const delivered = eventsOf(workflowId, backend.delivered(SECRET));
  const moves = delivered.flatMap((e) =>
    e.type === NotificationTypes.cardStatusChanged ? [`${e.data.previousStatus}>${e.data.status}`] : [],
  );
  expect(moves).toEqual(['Normal>Freeze', 'Freeze>Normal', 'Normal>Freeze', 'Freeze>Normal']);
  const prefix = `evt_${firstRun.replace(/-/g, '')}_`;
  const authorization = delivered.find((e) => e.type === NotificationTypes.cardTransaction && e.data.tradeNo === held);
  // Told by a later run, which learned from its carried state that notifications are on.
  expect(authorization?.id.startsWith(prefix)).toBe(false);
  expect(authorization?.data).toMatchObject({ kind: 'authorization', status: 'authorized' });
  expect(delivered.at(-1)).toMatchObject({
    type: NotificationTypes.cardCancelled,
    data: { cardNo, amountReturned: expect.any(String) },
  });
  expect(delivered.filter((e) => e.id.startsWith(prefix)).length).toBeGreaterThan(0);
});

it('a card cardflow issues is announced once, as card.issued with its customer, by the card workflow the issuance started as a client would', async () => {
  const ref = id('issued');
  let card: CardIssuanceResult | undefined;
  await withNotifyingWorker(async () => {
    card = (await h.client.workflow.execute('cardIssuance', {
      taskQueue: h.taskQueue,
      workflowId: id('notify-issue'),
      args: [{ cardTypeId: CARD_TYPES.noHolderNoDeposit, customerRef: ref, wait: FAST_WAIT }],
    })) as CardIssuanceResult;
    const workflowId = cardEntityWorkflowId(card.cardNo);
    await eventually(
      () => Promise.resolve(backend.delivered(SECRET).filter((e) => e.workflowId === workflowId)),
      (events) => events.some((e) => e.type === NotificationTypes.cardIssued),
      'card.issued at the backend',
    );
    // Asked again (a client's refresh reaches the running workflow): not announced again.
    await refreshCard(h.client, card.cardNo, { taskQueue: h.taskQueue, customerRef: ref, wait: FAST_WAIT });
    await h.helper('cancelCard', { cardNo: card.cardNo, reason: 'closed by the customer' });
    await h.client.workflow.getHandle(workflowId).result();
  });
  const workflowId = cardEntityWorkflowId(card!.cardNo);
  const issued = backend.delivered(SECRET).filter((e) => e.type === NotificationTypes.cardIssued);
  const ofCard = issued.filter((e) => e.workflowId === workflowId);
  expect(new Set(ofCard.map((e) => e.id))).toEqual(new Set([cardIssuedEventId(card!.cardNo)]));
  // Only the documented fields: no card data beyond the provider's id of the card.
  expect(ofCard[0]!.data).toEqual({
    cardNo: card!.cardNo,
    cardTypeId: CARD_TYPES.noHolderNoDeposit,
    customerRef: ref,
    cardStatus: 'Normal',
  });
  expect(eventsOf(workflowId, backend.delivered(SECRET))[0]!.type).toBe(NotificationTypes.cardIssued);

  // The createCard activity started the card's workflow with what a client's first call gives it.
  const handle = h.client.workflow.getHandle(workflowId);
  const history = await handle.fetchHistory();
  const started = history.events![0]!.workflowExecutionStartedEventAttributes!;
  const input = defaultPayloadConverter.fromPayload(started.input!.payloads![0]!);
  // With what it knew of the card it had just made: the create record and the read after it.
  expect(input).toEqual({
    ...cardEntityInputFor(card!.cardNo, { customerRef: ref, wait: FAST_WAIT }),
    attributesSetAtStart: true,
    born: {
      create: expect.objectContaining({ cardNo: card!.cardNo, type: 'create', status: 'success' }),
      card: expect.objectContaining({ cardTypeId: CARD_TYPES.noHolderNoDeposit, status: 'Normal' }),
      readAt: expect.any(Number),
      notifications: expect.objectContaining({ deliveryWindowMs: expect.any(Number) }),
    },
  });
  // So the card's workflow neither caught up nor read the card before the client's refresh asked it
  // to.
  const events = history.events!;
  const activities = (upTo: number) =>
    events.slice(0, upTo).flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  const refreshed = events.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
  expect(refreshed).toBeGreaterThan(0);
  expect(new Set(activities(refreshed))).toEqual(new Set(['deliverNotifications']));
  expect(activities(events.length)).toContain('cardRecordsSince');
  expect((await handle.describe()).typedSearchAttributes.get(CardflowCustomerRef)).toBe(ref);
});

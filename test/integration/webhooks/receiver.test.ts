/**
 * The webhook receiver against the real dev server: a signed provider event reaches the running
 * workflow that owns it, found by the route recorded for its key (a merchantOrderNo, a deposit
 * address, a card awaited), never by asking visibility.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { generateRsaKeyPair } from '../../../provider/keys';
import { WEBHOOK_ACK_BODY, buildSignedWebhook } from '../../../provider/signing';
import { CardflowCardNo, CardflowOrderNos } from '../../../domain/search-attributes';
import { until } from '../../support/until';
import { type RouteStore, createFileRouteStore, routeKey } from '../../../platform/storage/route-store';
import { type HandledWebhook, type WebhookReceiver, startWebhookReceiver } from '../../../webhooks/receiver';
import { type ReceiverTemporal, connectReceiverTemporal } from '../../../webhooks/temporal-client';
import {
  type TestClient,
  connectTestClient,
  quietRuntime,
  runWithWorker,
  testTemporalServer,
} from '../support/temporal-env';
import { walletTransactionRecord } from '../../fixtures/provider-events';
import { type eventSink, receivedEventsQuery } from './event-sink.workflow';

jest.setTimeout(120_000);

const platform = generateRsaKeyPair();
let temporal: TestClient;
let receiverTemporal: ReceiverTemporal;
let receiver: WebhookReceiver;
let dir: string;
let routes: RouteStore;
/** The visibility list queries the receivers' client made (routing by route must make none). */
const listQueries: string[] = [];
const handled: HandledWebhook[] = [];

function operationBody(merchantOrderNo: string, cardNo: string, status: string): string {
  return `{"orderNo":"${randomUUID()}","merchantOrderNo":"${merchantOrderNo}","cardNo":"${cardNo}","currency":"USD","amount":12345678901234567.10,"fee":1.00,"type":"deposit","status":"${status}","transactionTime":1700000000000}`;
}

function post(body: string, category: string, requestId: string): Promise<Response> {
  const signed = buildSignedWebhook({ body, category, requestId, platformPrivateKey: platform.privateKey });
  return fetch(receiver.url, { method: 'POST', headers: signed.headers, body: signed.body });
}

beforeAll(async () => {
  temporal = await connectTestClient();
  // The receiver's own connection, as `npm run webhooks` makes it (the SDK core's native one).
  const { address, namespace } = testTemporalServer();
  quietRuntime();
  receiverTemporal = await connectReceiverTemporal({
    env: { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace },
    dataConverter: {},
  });
  const list = receiverTemporal.client.workflow.list.bind(receiverTemporal.client.workflow);
  receiverTemporal.client.workflow.list = (options) => {
    listQueries.push(options?.query ?? '');
    return list(options);
  };
  dir = mkdtempSync(path.join(tmpdir(), 'cardflow-webhooks-it-'));
  // Where the workers would record routes; the tests record as the activities do.
  routes = createFileRouteStore({ dir: path.join(dir, 'routes') });
  receiver = await startWebhookReceiver({
    platformPublicKey: platform.publicKeyPem,
    client: receiverTemporal.client,
    dataDir: dir,
    routes,
    onHandled: (h) => handled.push(h),
  });
});

afterAll(async () => {
  await receiver?.stop();
  await receiverTemporal?.close();
  await temporal?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('signals a card operation to the workflow that recorded the route of its merchantOrderNo, once per request id, asking no visibility', async () => {
  const orderNo = `CF${randomUUID().replace(/-/g, '')}`;
  const cardNo = `C${Date.now()}`;
  const queriesBefore = listQueries.length;
  await runWithWorker({ workflowsPath: require.resolve('./event-sink.workflow') }, async ({ taskQueue }) => {
    const handle = await temporal.client.workflow.start<typeof eventSink>('eventSink', {
      taskQueue,
      workflowId: `webhook-it-${randomUUID()}`,
      args: [{ expect: 2 }],
    });
    // As the activity does before it sends the operation.
    await routes.record(routeKey('order', orderNo), handle.workflowId);
    // A non-final status is acknowledged and recorded, but no workflow acts on it: not signalled.
    const progressId = `req-${randomUUID()}`;
    const progress = await post(operationBody(orderNo, cardNo, 'processing'), 'card_transaction', progressId);
    expect(progress.status).toBe(200);
    expect(await progress.text()).toBe(WEBHOOK_ACK_BODY);
    expect(handled.find((h) => h.requestId === progressId)?.outcome).toBe('not_forwarded');
    const first = await post(operationBody(orderNo, cardNo, 'fail'), 'card_transaction', `req-${randomUUID()}`);
    expect(first.status).toBe(200);
    const repeatId = `req-${randomUUID()}`;
    expect((await post(operationBody(orderNo, cardNo, 'success'), 'card_transaction', repeatId)).status).toBe(200);
    expect((await post(operationBody(orderNo, cardNo, 'success'), 'card_transaction', repeatId)).status).toBe(200);

    const events = await handle.result();
    expect(events.map((e) => (e.category === 'card_transaction' ? e.record.status : e.category))).toEqual([
      'fail',
      'success',
    ]);
    expect(events[1]).toEqual({
      category: 'card_transaction',
      requestId: repeatId,
      record: expect.objectContaining({ merchantOrderNo: orderNo, cardNo, amount: '12345678901234567.10' }),
    });
    expect(await handle.query(receivedEventsQuery)).toHaveLength(2);
    expect(handled.filter((h) => h.requestId === repeatId).map((h) => h.outcome)).toEqual(['signalled', 'duplicate']);
    // What the receiver reports of it, in order: arrived, read and verified, signalled, recorded.
    const signalled = handled.find((h) => h.requestId === repeatId && h.outcome === 'signalled')!;
    const moments = [signalled.receivedAtMs, signalled.verifiedAtMs, signalled.signalledAtMs, signalled.settledAtMs];
    expect(moments.every((at) => typeof at === 'number')).toBe(true);
    expect([...moments].sort((a, b) => a! - b!)).toEqual(moments);
  });
  expect(listQueries.slice(queriesBefore)).toEqual([]);
});

it('routes by a route another receiver reads too, and stops signalling a workflow found closed', async () => {
  const second = await startWebhookReceiver({
    platformPublicKey: platform.publicKeyPem,
    client: receiverTemporal.client,
    dataDir: mkdtempSync(path.join(dir, 'second-')),
    routes: createFileRouteStore({ dir: path.join(dir, 'routes') }),
    onHandled: (h) => handled.push(h),
  });
  const queriesBefore = listQueries.length;
  const address = `T${randomUUID().replace(/-/g, '')}`;
  const deposit = (status: 'success' | 'fail') =>
    JSON.stringify(walletTransactionRecord({ orderNo: '', destinationAddress: address, status }));
  const postTo = (url: string, body: string, requestId: string) => {
    const signed = buildSignedWebhook({
      body,
      category: 'wallet_transaction_v2',
      requestId,
      platformPrivateKey: platform.privateKey,
    });
    return fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
  };
  try {
    await runWithWorker({ workflowsPath: require.resolve('./event-sink.workflow') }, async ({ taskQueue }) => {
      const start = (expect: number) =>
        temporal.client.workflow.start<typeof eventSink>('eventSink', {
          taskQueue,
          workflowId: `webhook-it-${randomUUID()}`,
          args: [{ expect }],
        });
      // A delivery before any route: acknowledged and recorded as nobody's (docs/architecture.md).
      const earlyId = `req-${randomUUID()}`;
      expect((await postTo(second.url, deposit('success'), earlyId)).status).toBe(200);
      expect(handled.find((h) => h.requestId === earlyId)?.outcome).toBe('no_owner');

      // A shared deposit address: two fundings watch it; the first closes after one event.
      const [closing, watching] = [await start(1), await start(2)];
      await routes.record(routeKey('address', address), closing.workflowId);
      await routes.record(routeKey('address', address), watching.workflowId);
      const firstId = `req-${randomUUID()}`;
      expect((await postTo(second.url, deposit('success'), firstId)).status).toBe(200);
      expect(handled.find((h) => h.requestId === firstId)?.workflowIds.sort()).toEqual(
        [closing.workflowId, watching.workflowId].sort(),
      );
      await closing.result();
      const nextId = `req-${randomUUID()}`;
      expect((await postTo(receiver.url, deposit('fail'), nextId)).status).toBe(200);
      expect(handled.find((h) => h.requestId === nextId)?.workflowIds).toEqual([watching.workflowId]);
      expect(await watching.result()).toHaveLength(2);
      const owners = await routes.owners(routeKey('address', address));
      expect(owners.filter((o) => !o.closed).map((o) => o.workflowId)).toEqual([watching.workflowId]);
      expect(owners.filter((o) => o.closed).map((o) => o.workflowId)).toEqual([closing.workflowId]);
    });
  } finally {
    await second.stop();
  }
  expect(listQueries.slice(queriesBefore)).toEqual([]);
});

it('never asks visibility, even for a workflow that set the search attributes but recorded no route', async () => {
  const orderNo = `CF${randomUUID().replace(/-/g, '')}`;
  const queriesBefore = listQueries.length;
  await runWithWorker({ workflowsPath: require.resolve('./event-sink.workflow') }, async ({ taskQueue }) => {
    const handle = await temporal.client.workflow.start<typeof eventSink>('eventSink', {
      taskQueue,
      workflowId: `webhook-it-${randomUUID()}`,
      args: [{ expect: 1 }],
      typedSearchAttributes: [{ key: CardflowOrderNos, value: [orderNo] }],
    });
    // Listed by visibility (an operator would find it), but nobody recorded its route.
    await until(
      async () => (await temporal.client.workflow.count(`CardflowOrderNos = '${orderNo}'`)).count,
      (count) => count === 1,
    );
    const requestId = `req-${randomUUID()}`;
    await post(operationBody(orderNo, 'C-no-route', 'success'), 'card_transaction', requestId);
    expect(handled.find((h) => h.requestId === requestId)?.outcome).toBe('no_owner');
    await handle.terminate('test done');
  });
  expect(listQueries.slice(queriesBefore)).toEqual([]);
});

it('answers 503 while the route store cannot be read, so the provider delivers it again', async () => {
  const failing: RouteStore = {
    ...routes,
    owners: () => Promise.reject(new Error('database unavailable')),
  };
  const third = await startWebhookReceiver({
    platformPublicKey: platform.publicKeyPem,
    client: receiverTemporal.client,
    dataDir: mkdtempSync(path.join(dir, 'third-')),
    routes: failing,
  });
  try {
    const signed = buildSignedWebhook({
      body: operationBody(`CF${randomUUID().replace(/-/g, '')}`, 'C1', 'success'),
      category: 'card_transaction',
      requestId: `req-${randomUUID()}`,
      platformPrivateKey: platform.privateKey,
    });
    const response = await fetch(third.url, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(503);
  } finally {
    await third.stop();
  }
});

it('routes a 3DS record to the workflow that awaits the card, and records an event nobody owns', async () => {
  const cardNo = `C${Date.now()}x`;
  const queriesBefore = listQueries.length;
  await runWithWorker({ workflowsPath: require.resolve('./event-sink.workflow') }, async ({ taskQueue }) => {
    const handle = await temporal.client.workflow.start<typeof eventSink>('eventSink', {
      taskQueue,
      workflowId: `webhook-it-${randomUUID()}`,
      args: [{ expect: 1 }],
      typedSearchAttributes: [{ key: CardflowCardNo, value: cardNo }],
    });
    // An authorization concerns the card's own workflow alone (not started by this receiver).
    const auth = `{"cardNo":"${cardNo}","tradeNo":"T1","authorizedAmount":"5.00","authorizedCurrency":"USD","fee":"0","crossBoardFee":"0","type":"auth","status":"authorized","description":"ok","transactionTime":1700000000000}`;
    const authId = `req-${randomUUID()}`;
    expect((await post(auth, 'card_auth_transaction', authId)).status).toBe(200);
    expect(handled.find((h) => h.requestId === authId)?.outcome).toBe('no_owner');
    // As the activation's code poll records it (activities/activation.ts).
    await routes.record(routeKey('card', cardNo), handle.workflowId);
    const code = `{"cardNo":"${cardNo}","tradeNo":"T3DS","currency":"USD","amount":0,"merchantName":"activation","values":"sealed","type":"activation_code","transactionTime":1700000000000,"expirationTime":1900000000000}`;
    expect((await post(code, 'card_3ds', `req-${randomUUID()}`)).status).toBe(200);
    const [event] = await handle.result();
    expect(event).toEqual(
      expect.objectContaining({
        category: 'card_3ds',
        record: expect.objectContaining({ cardNo, tradeNo: 'T3DS', type: 'activation_code' }),
      }),
    );
    // The code itself never reaches a workflow.
    expect(JSON.stringify(event)).not.toContain('sealed');
  });
  expect(listQueries.slice(queriesBefore)).toEqual([]);

  const orphanId = `req-${randomUUID()}`;
  const orphan = await post(
    operationBody(`CF${randomUUID().replace(/-/g, '')}`, 'C-nobody', 'success'),
    'card_transaction',
    orphanId,
  );
  expect(orphan.status).toBe(200);
  expect(await orphan.text()).toBe(WEBHOOK_ACK_BODY);
  expect(handled.find((h) => h.requestId === orphanId)?.outcome).toBe('no_owner');
});

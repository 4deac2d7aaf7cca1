/**
 * The webhook receiver against the real dev server: a signed provider event reaches the running
 * workflow that owns it, found by visibility on the search attributes it was started with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { generateRsaKeyPair } from '../../../api/keys';
import { WEBHOOK_ACK_BODY, buildSignedWebhook } from '../../../api/signing';
import { CardflowCardNo, CardflowOrderNos } from '../../../domain/search-attributes';
import { type HandledWebhook, type WebhookReceiver, startWebhookReceiver } from '../../../webhooks/receiver';
import { type ReceiverTemporal, connectReceiverTemporal } from '../../../webhooks/temporal-client';
import {
  type TestClient,
  connectTestClient,
  quietRuntime,
  runWithWorker,
  testTemporalServer,
} from '../support/temporal-env';
import { type eventSink, receivedEventsQuery } from './event-sink.workflow';

jest.setTimeout(120_000);

const platform = generateRsaKeyPair();
let temporal: TestClient;
let receiverTemporal: ReceiverTemporal;
let receiver: WebhookReceiver;
let dir: string;
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
  dir = mkdtempSync(path.join(tmpdir(), 'cardflow-webhooks-it-'));
  receiver = await startWebhookReceiver({
    platformPublicKey: platform.publicKeyPem,
    client: receiverTemporal.client,
    dataDir: dir,
    onHandled: (h) => handled.push(h),
  });
});

afterAll(async () => {
  await receiver?.stop();
  await receiverTemporal?.close();
  await temporal?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('signals a card operation to the running workflow that used its merchantOrderNo, once per request id', async () => {
  const orderNo = `CF${randomUUID().replace(/-/g, '')}`;
  const cardNo = `C${Date.now()}`;
  await runWithWorker({ workflowsPath: require.resolve('./event-sink.workflow') }, async ({ taskQueue }) => {
    const handle = await temporal.client.workflow.start<typeof eventSink>('eventSink', {
      taskQueue,
      workflowId: `webhook-it-${randomUUID()}`,
      args: [{ expect: 2 }],
      typedSearchAttributes: [
        { key: CardflowOrderNos, value: [orderNo] },
        { key: CardflowCardNo, value: cardNo },
      ],
    });
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
  });
});

it('routes a card-level event by cardNo and records an event nobody owns', async () => {
  const cardNo = `C${Date.now()}x`;
  await runWithWorker({ workflowsPath: require.resolve('./event-sink.workflow') }, async ({ taskQueue }) => {
    const handle = await temporal.client.workflow.start<typeof eventSink>('eventSink', {
      taskQueue,
      workflowId: `webhook-it-${randomUUID()}`,
      args: [{ expect: 1 }],
      typedSearchAttributes: [{ key: CardflowCardNo, value: cardNo }],
    });
    const auth = `{"cardNo":"${cardNo}","tradeNo":"T1","authorizedAmount":"5.00","authorizedCurrency":"USD","fee":"0","crossBoardFee":"0","type":"auth","status":"authorized","description":"ok","transactionTime":1700000000000}`;
    const response = await post(auth, 'card_auth_transaction', `req-${randomUUID()}`);
    expect(response.status).toBe(200);
    const [event] = await handle.result();
    expect(event).toEqual(
      expect.objectContaining({
        category: 'card_auth_transaction',
        record: expect.objectContaining({ cardNo, tradeNo: 'T1' }),
      }),
    );
  });

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

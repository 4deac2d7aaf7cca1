import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRsaKeyPair } from '../../../provider/keys';
import { REQUEST_ID_HEADER, WEBHOOK_ACK_BODY, buildSignedWebhook } from '../../../provider/signing';
import type { ProviderEvent } from '../../../domain/provider-event';
import type { EventForwarder } from '../../../webhooks/forwarder';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type RefusedWebhook,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  startWebhookReceiver,
} from '../../../webhooks/receiver';
import { endlessHeaders, postWhole, slowRequest, trickledBody } from '../support/slow-client';
import type { RouteLookup } from '../../../webhooks/routing';
import { DELIVERY_LOG, type WebhookEntry } from '../../../webhooks/store';

const platform = generateRsaKeyPair();
const impostor = generateRsaKeyPair();

const operationBody =
  '{"orderNo":"O1","merchantOrderNo":"CFabc0123456789abcdef0123456789","cardNo":"C100","currency":"USD","amount":100.10,"fee":1.00,"type":"create","status":"success","transactionTime":1700000000000}';

/** Records every forward; answers with `owners` (or throws `failWith`). */
class RecordingForwarder implements EventForwarder {
  calls: Array<{ event: ProviderEvent; lookups: readonly RouteLookup[] }> = [];
  owners = ['onboarding-acme-1/card'];
  failWith: Error | undefined;
  async forward(event: ProviderEvent, lookups: readonly RouteLookup[]): Promise<string[]> {
    this.calls.push({ event, lookups });
    if (this.failWith) throw this.failWith;
    return this.owners;
  }
}

let dir: string;
let forwarder: RecordingForwarder;
let receiver: WebhookReceiver;
let refused: RefusedWebhook[];

async function start(options: Partial<WebhookReceiverOptions> = {}): Promise<void> {
  receiver = await startWebhookReceiver({
    platformPublicKey: platform.publicKeyBase64Der,
    forwarder,
    dataDir: dir,
    onRefused: (r) => refused.push(r),
    ...options,
  });
}

/** Stops the receiver and starts it again on the same data directory, with `options` changed. */
async function restart(options: Partial<WebhookReceiverOptions> = {}): Promise<void> {
  await receiver.stop();
  await start(options);
}

function post(body: string, category: string, requestId: string, signWith = platform.privateKey): Promise<Response> {
  const signed = buildSignedWebhook({ body, category, requestId, platformPrivateKey: signWith });
  return fetch(receiver.url, { method: 'POST', headers: signed.headers, body: signed.body });
}

function log(): WebhookEntry[] {
  return readFileSync(path.join(dir, DELIVERY_LOG), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as WebhookEntry);
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'cardflow-webhooks-'));
  forwarder = new RecordingForwarder();
  refused = [];
  await start();
});

afterEach(async () => {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('acknowledges a signed event with exactly the envelope the provider requires and signals its owner', async () => {
  const response = await post(operationBody, 'card_transaction', 'req-1');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(await response.text()).toBe('{"success":true,"code":200,"msg":null,"data":null}');
  expect(WEBHOOK_ACK_BODY).toBe('{"success":true,"code":200,"msg":null,"data":null}');
  expect(forwarder.calls).toHaveLength(1);
  const [call] = forwarder.calls;
  expect(call!.event).toEqual({
    category: 'card_transaction',
    requestId: 'req-1',
    record: expect.objectContaining({
      merchantOrderNo: 'CFabc0123456789abcdef0123456789',
      amount: '100.10',
      fee: '1.00',
      status: 'success',
    }),
  });
  expect(call!.lookups.map((l) => l.key)).toEqual(['order:CFabc0123456789abcdef0123456789']);
  expect(log()).toEqual([
    expect.objectContaining({ requestId: 'req-1', outcome: 'signalled', workflowIds: ['onboarding-acme-1/card'] }),
  ]);
});

it('answers 401 to a bad signature and forwards and records nothing', async () => {
  const forged = await post(operationBody, 'card_transaction', 'req-forged', impostor.privateKey);
  expect(forged.status).toBe(401);
  const unsigned = await fetch(receiver.url, {
    method: 'POST',
    headers: { 'x-wsb-category': 'card_transaction', 'x-wsb-request-id': 'req-x' },
    body: operationBody,
  });
  expect(unsigned.status).toBe(401);
  // A body changed after signing: the signature covers the raw bytes.
  const signed = buildSignedWebhook({
    body: operationBody,
    category: 'card_transaction',
    requestId: 'req-t',
    platformPrivateKey: platform.privateKey,
  });
  const tampered = await fetch(receiver.url, {
    method: 'POST',
    headers: signed.headers,
    body: operationBody.replace('100.10', '900.10'),
  });
  expect(tampered.status).toBe(401);
  expect(forwarder.calls).toHaveLength(0);
  expect(refused).toHaveLength(3);
  expect(refused.every((r) => r.httpStatus === 401 && r.kind === 'refused' && r.reason.length > 0)).toBe(true);
  expect(readFileSync(path.join(dir, DELIVERY_LOG), 'utf8')).toBe('');
});

it('acknowledges a repeated request id every time but signals once, also after a restart', async () => {
  expect((await post(operationBody, 'card_transaction', 'req-dup')).status).toBe(200);
  expect((await post(operationBody, 'card_transaction', 'req-dup')).status).toBe(200);
  await restart();
  const again = await post(operationBody, 'card_transaction', 'req-dup');
  expect(again.status).toBe(200);
  expect(await again.text()).toBe(WEBHOOK_ACK_BODY);
  expect(forwarder.calls).toHaveLength(1);
  expect(log()).toHaveLength(1);
});

it('forwards a review state the holder reaches again in a later round, with the time that tells the rounds apart', async () => {
  const reject = (updateTime: number) =>
    `{"holderId":1989887271659823105,"merchantOrderNo":"CFholder01234567890","cardTypeId":7,"statusFlowLocation":"admin","status":"reject","firstName":"Ada","createTime":1700000000000,"updateTime":${updateTime}}`;
  expect((await post(reject(1700000001000), 'card_holder', 'req-round-1')).status).toBe(200);
  expect((await post(reject(1700000009000), 'card_holder', 'req-round-2')).status).toBe(200);
  // Without X-WSB-REQUEST-ID the body stands for the delivery: the later round's differs by its
  // time.
  const unnamed = (body: string) => {
    const { [REQUEST_ID_HEADER]: _requestId, ...headers } = buildSignedWebhook({
      body,
      category: 'card_holder',
      requestId: 'dropped',
      platformPrivateKey: platform.privateKey,
    }).headers;
    return fetch(receiver.url, { method: 'POST', headers, body });
  };
  expect((await unnamed(reject(1700000020000))).status).toBe(200);
  expect((await unnamed(reject(1700000030000))).status).toBe(200);
  expect((await unnamed(reject(1700000030000))).status).toBe(200);
  expect(forwarder.calls.map((c) => c.event.record)).toEqual(
    [1700000001000, 1700000009000, 1700000020000, 1700000030000].map((updateTime) => ({
      holderId: '1989887271659823105',
      merchantOrderNo: 'CFholder01234567890',
      cardTypeId: '7',
      statusFlowLocation: 'admin',
      status: 'reject',
      updateTime,
    })),
  );
});

it('signals once when the same request id arrives twice at the same moment', async () => {
  const responses = await Promise.all([
    post(operationBody, 'card_transaction', 'req-race'),
    post(operationBody, 'card_transaction', 'req-race'),
  ]);
  expect(responses.map((r) => r.status)).toEqual([200, 200]);
  expect(forwarder.calls).toHaveLength(1);
});

it('acknowledges and records an unknown category without forwarding it', async () => {
  const body = '{"somethingNew":12345678901234567890,"cardNo":"C100"}';
  const response = await post(body, 'brand_new_category', 'req-new');
  expect(response.status).toBe(200);
  expect(await response.text()).toBe(WEBHOOK_ACK_BODY);
  expect(forwarder.calls).toHaveLength(0);
  expect(log()).toEqual([
    expect.objectContaining({
      requestId: 'req-new',
      category: 'brand_new_category',
      outcome: 'unknown_category',
      body,
    }),
  ]);
});

it('acknowledges and records an event no running workflow owns', async () => {
  forwarder.owners = [];
  const response = await post(operationBody, 'card_transaction', 'req-orphan');
  expect(response.status).toBe(200);
  expect(await response.text()).toBe(WEBHOOK_ACK_BODY);
  expect(log()).toEqual([expect.objectContaining({ requestId: 'req-orphan', outcome: 'no_owner', workflowIds: [] })]);
});

it('acknowledges and records a record that breaks its schema, naming the field, without forwarding it', async () => {
  const response = await post(operationBody.replace('"success"', '"exploded"'), 'card_transaction', 'req-bad');
  expect(response.status).toBe(200);
  expect(forwarder.calls).toHaveLength(0);
  expect(log()).toEqual([
    expect.objectContaining({ outcome: 'unparseable', problem: expect.stringMatching(/^status: /) }),
  ]);
});

it('answers non-200 and records nothing while Temporal is unreachable, then handles the retry', async () => {
  forwarder.failWith = new Error('14 UNAVAILABLE: connection refused');
  const failed = await post(operationBody, 'card_transaction', 'req-down');
  expect(failed.status).toBe(503);
  expect(await failed.text()).not.toBe(WEBHOOK_ACK_BODY);
  expect(refused).toEqual([{ httpStatus: 503, kind: 'failed', reason: '14 UNAVAILABLE: connection refused' }]);
  expect(readFileSync(path.join(dir, DELIVERY_LOG), 'utf8')).toBe('');
  forwarder.failWith = undefined;
  const retried = await post(operationBody, 'card_transaction', 'req-down');
  expect(retried.status).toBe(200);
  expect(forwarder.calls).toHaveLength(2);
  expect(log()).toEqual([expect.objectContaining({ requestId: 'req-down', outcome: 'signalled' })]);
});

it('refuses a body over the size cap, other methods and other paths', async () => {
  await restart({ platformPublicKey: platform.publicKeyPem, maxBodyBytes: 64 });
  expect((await post(operationBody, 'card_transaction', 'req-big')).status).toBe(413);
  expect((await fetch(receiver.url)).status).toBe(405);
  expect((await fetch(new URL('/elsewhere', receiver.url), { method: 'POST', body: '{}' })).status).toBe(404);
  expect(forwarder.calls).toHaveLength(0);
  expect(refused.map((r) => [r.httpStatus, r.kind])).toEqual([
    [413, 'refused'],
    [405, 'refused'],
    [404, 'refused'],
  ]);
});

describe('slow clients', () => {
  beforeEach(async () => {
    await restart({ platformPublicKey: platform.publicKeyPem, headersTimeoutMs: 3_000, requestTimeoutMs: 4_000 });
  });

  it('drops a client that sends headers or body a few bytes a second, within its limits, while serving others', async () => {
    const path = new URL(receiver.url).pathname;
    const slow = [
      slowRequest(receiver.url, endlessHeaders(path), 200, 15_000),
      slowRequest(receiver.url, endlessHeaders(path), 200, 15_000),
      slowRequest(receiver.url, trickledBody(path), 200, 15_000),
    ];
    let dropped = 0;
    for (const s of slow) void s.closed.then(() => (dropped += 1));
    try {
      // Meanwhile a real delivery is acknowledged, while every slow client still holds its
      // connection.
      expect((await post(operationBody, 'card_transaction', 'req-fast')).status).toBe(200);
      expect(dropped).toBe(0);
      const closedAfter = await Promise.all(slow.map((s) => s.closed));
      // Headers limit 3 s, request limit 4 s, checked every second: dropped long before the clients
      // give up.
      for (const ms of closedAfter) expect(ms).toBeLessThan(10_000);
      expect(slow.map((s) => s.received().split('\r\n')[0])).toEqual([
        'HTTP/1.1 408 Request Timeout',
        'HTTP/1.1 408 Request Timeout',
        'HTTP/1.1 408 Request Timeout',
      ]);
      expect(forwarder.calls).toHaveLength(1);
    } finally {
      for (const s of slow) s.stop();
    }
  }, 20_000);

  it('answers 413 to a 10 MiB body sent whole before reading, never a reset or a broken pipe', async () => {
    const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
    for (let i = 0; i < 5; i++)
      expect(await postWhole(receiver.url, { 'content-type': 'application/json' }, body)).toBe(413);
    expect(forwarder.calls).toHaveLength(0);
  });

  it('has limits of seconds by default', () => {
    expect(DEFAULT_HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(5_000);
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
  });
});

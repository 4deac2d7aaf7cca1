import { setTimeout as sleep } from 'node:timers/promises';
import { generateRsaKeyPair } from '../../../provider/keys';
import { buildSignedWebhook } from '../../../provider/signing';
import type { ProviderEvent } from '../../../domain/provider-event';
import type { EventForwarder } from '../../../webhooks/forwarder';
import { openPostgresWebhookStore } from '../../../webhooks/postgres-store';
import { type WebhookReceiver, startWebhookReceiver } from '../../../webhooks/receiver';
import type { WebhookEntry, WebhookStore } from '../../../webhooks/store';
import { type TestPostgres, startTestPostgres } from '../support/postgres';

const platform = generateRsaKeyPair();
const operationBody =
  '{"orderNo":"O1","merchantOrderNo":"CFabc0123456789abcdef0123456789","cardNo":"C100","currency":"USD","amount":100.10,"fee":1.00,"type":"create","status":"success","transactionTime":1700000000000}';

/**
 * Counts forwards across replicas; each forward takes `delayMs`, as a visibility lookup and signal
 * would.
 */
class SharedForwarder implements EventForwarder {
  forwarded: ProviderEvent[] = [];
  delayMs = 300;
  async forward(event: ProviderEvent): Promise<string[]> {
    await sleep(this.delayMs);
    this.forwarded.push(event);
    return ['onboarding-acme-1/card'];
  }
}

const entry = (requestId: string): WebhookEntry => ({
  requestId,
  category: 'card_transaction',
  outcome: 'signalled',
  workflowIds: ['w'],
  recordedAt: new Date().toISOString(),
});

let pg: TestPostgres;
const opened: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  pg = await startTestPostgres();
}, 60_000);
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});
afterAll(async () => pg?.stop());

async function store(url: string, opts: Parameters<typeof openPostgresWebhookStore>[1] = {}): Promise<WebhookStore> {
  const s = await openPostgresWebhookStore(url, opts);
  opened.push(s);
  return s;
}

it('lets one replica claim a delivery; the other sees it busy, then handled once recorded', async () => {
  const url = await pg.database();
  const [a, b] = await Promise.all([store(url, { replica: 'a' }), store(url, { replica: 'b' })]);
  expect(await a.claim!('req-1')).toBe('claimed');
  expect(await b.claim!('req-1')).toBe('busy');
  expect(await a.claim!('req-1')).toBe('busy');
  expect(await b.get('req-1')).toBeUndefined();
  await a.append(entry('req-1'));
  expect(await b.claim!('req-1')).toBe('handled');
  expect(await b.get('req-1')).toEqual(expect.objectContaining({ requestId: 'req-1', outcome: 'signalled' }));
});

it('hands a claim over when its lease runs out (the replica died) or when it is released', async () => {
  const url = await pg.database();
  const a = await store(url, { replica: 'a', claimLeaseMs: 500 });
  const b = await store(url, { replica: 'b', claimLeaseMs: 500 });
  expect(await a.claim!('req-dead')).toBe('claimed');
  expect(await b.claim!('req-dead')).toBe('busy');
  await sleep(700);
  expect(await b.claim!('req-dead')).toBe('claimed');
  expect(await a.claim!('req-dead')).toBe('busy');
  // Released by another replica than the holder: nothing changes.
  await a.release!('req-dead');
  expect(await a.claim!('req-dead')).toBe('busy');
  await b.release!('req-dead');
  expect(await a.claim!('req-dead')).toBe('claimed');
});

it('drops entries past the retention when a replica starts, and keeps recent ones', async () => {
  const url = await pg.database();
  const a = await store(url);
  await a.append({ ...entry('old'), recordedAt: new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString() });
  await a.append(entry('recent'));
  const b = await store(url);
  expect(await b.get('old')).toBeUndefined();
  expect(await b.get('recent')).toBeDefined();
});

describe('two receivers on one PostgreSQL delivery log', () => {
  let receivers: WebhookReceiver[];
  let forwarder: SharedForwarder;

  async function startReceivers(url: string, claimLeaseMs?: number): Promise<void> {
    forwarder = new SharedForwarder();
    receivers = [];
    for (const replica of ['r1', 'r2']) {
      const s = await store(url, { replica, ...(claimLeaseMs ? { claimLeaseMs } : {}) });
      receivers.push(
        await startWebhookReceiver({ platformPublicKey: platform.publicKeyBase64Der, forwarder, store: s }),
      );
    }
  }
  afterEach(async () => {
    for (const r of receivers) await r.stop();
  });

  function post(to: WebhookReceiver, requestId: string): Promise<Response> {
    const signed = buildSignedWebhook({
      body: operationBody,
      category: 'card_transaction',
      requestId,
      platformPrivateKey: platform.privateKey,
    });
    return fetch(to.url, { method: 'POST', headers: signed.headers, body: signed.body });
  }

  it('forwards a delivery that reaches both at once exactly once, and acknowledges it on both', async () => {
    await startReceivers(await pg.database());
    const answers = await Promise.all([post(receivers[0]!, 'req-twice'), post(receivers[1]!, 'req-twice')]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(forwarder.forwarded.map((e) => e.requestId)).toEqual(['req-twice']);
    // And a later repeat to either replica is a duplicate too.
    expect((await post(receivers[1]!, 'req-twice')).status).toBe(200);
    expect(forwarder.forwarded).toHaveLength(1);
  });

  it('forwards a delivery whose first replica died after claiming it, once the claim lapses', async () => {
    const url = await pg.database();
    await startReceivers(url, 1_000);
    // What a replica killed mid-forward leaves behind: a claim and no record.
    const dead = await store(url, { replica: 'dead', claimLeaseMs: 1_000 });
    expect(await dead.claim!('req-orphan')).toBe('claimed');
    // The provider's retry reaches a live replica, which waits for the lapsed claim and forwards.
    const answer = await post(receivers[0]!, 'req-orphan');
    expect(answer.status).toBe(200);
    expect(forwarder.forwarded.map((e) => e.requestId)).toEqual(['req-orphan']);
    expect(await dead.get('req-orphan')).toEqual(expect.objectContaining({ outcome: 'signalled' }));
  });

  it('answers 503 while another replica holds a live claim, so the provider retries later', async () => {
    const url = await pg.database();
    await startReceivers(url);
    const other = await store(url, { replica: 'other', claimLeaseMs: 60_000 });
    expect(await other.claim!('req-held')).toBe('claimed');
    receivers.push(
      await startWebhookReceiver({
        platformPublicKey: platform.publicKeyBase64Der,
        forwarder,
        store: await store(url, { replica: 'r3' }),
        claimWaitMs: 500,
      }),
    );
    expect((await post(receivers[2]!, 'req-held')).status).toBe(503);
    expect(forwarder.forwarded).toHaveLength(0);
  });
});

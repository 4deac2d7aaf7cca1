/**
 * Webhook delivery: signed with the platform
 * key, verified by provider/'s verifier, retried on the provider's schedule scaled on the sandbox
 * clock with one request id per event, and each webhook fault mode.
 */
import { verifyWebhook } from '../../../../provider/signing';
import { type RunningSandbox, WEBHOOK_RETRY_SCHEDULE_MS, startSandbox } from '../../../../tools/sandbox/index';
import { StandInEngine, WebhookReceiver, helperPost, plain, signedPost } from './support';

// Real servers and RSA keys: allow for a loaded machine (the project-level testTimeout does not
// reach here).
jest.setTimeout(30_000);

let receiver: WebhookReceiver;
let sandbox: RunningSandbox;

/** A sandbox on a manual clock; retries use the provider's schedule times `retryScale`. */
async function start(retryScale: number): Promise<void> {
  sandbox = await startSandbox({
    clock: 'manual',
    clockStart: 1_700_000_000_000,
    delays: { webhookRetryScale: retryScale },
    webhookUrl: receiver.url,
    createEngine: (deps) => new StandInEngine(deps),
  });
}

async function emit(payload: Record<string, unknown>, category = 'card_transaction'): Promise<void> {
  const res = await helperPost(sandbox, 'emit', { category, payload });
  expect(res.json.success).toBe(true);
  await sandbox.deliveries.idle();
}

/** Moves the sandbox clock and waits for the deliveries that came due. */
async function advance(ms: number): Promise<void> {
  await sandbox.clock.advance(ms);
  await sandbox.deliveries.idle();
}

/** The next delivery comes exactly `ms` of sandbox time from now: not a millisecond earlier. */
async function expectNextDeliveryIn(ms: number): Promise<void> {
  const before = receiver.received.length;
  await advance(ms - 1);
  expect(receiver.received).toHaveLength(before);
  await advance(1);
  expect(receiver.received).toHaveLength(before + 1);
}

beforeEach(async () => {
  receiver = await new WebhookReceiver().start();
});
afterEach(async () => {
  await sandbox?.stop();
  await receiver.stop();
});

describe('delivery', () => {
  beforeEach(() => start(1));

  it('POSTs the payload with the provider headers; provider/ verifies it; each event has its own request id', async () => {
    const transfer =
      '{"type":"TRANSFER","merchantOrderNo":"ORDER-WH-000000000001","amount":10.50,"payerAccountId":1989887271659823105,"payeeAccountId":2}';
    expect((await signedPost(sandbox, '/merchant/core/mcb/account/transfer', transfer)).json.success).toBe(true);
    await sandbox.deliveries.idle();
    await emit({ holderId: 1, status: 'pass_audit' }, 'card_holder');
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(first!.headers['content-type']).toBe('application/json');
    expect(first!.headers['x-wsb-category']).toBe('card_transaction');
    expect(second!.headers['x-wsb-category']).toBe('card_holder');
    // The body keeps the amount's digits exactly (10.50, not 10.5).
    expect(first!.rawBody.toString()).toBe('{"merchantOrderNo":"ORDER-WH-000000000001","amount":10.50}');
    const verified = verifyWebhook({
      rawBody: first!.rawBody,
      headers: first!.headers,
      platformPublicKey: sandbox.keys.platform.publicKey,
    });
    expect(verified.category).toBe('card_transaction');
    expect(plain(verified.payload)).toEqual({ merchantOrderNo: 'ORDER-WH-000000000001', amount: 10.5 });
    expect(first!.headers['x-wsb-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first!.headers['x-wsb-request-id']).not.toBe(second!.headers['x-wsb-request-id']);
    // A tampered body does not verify.
    expect(() =>
      verifyWebhook({
        rawBody: Buffer.from(first!.rawBody.toString().replace('10.50', '99.50')),
        headers: first!.headers,
        platformPublicKey: sandbox.keys.platform.publicKey,
      }),
    ).toThrow(/does not match/);
    expect(sandbox.deliveries.log().map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });

  it('an unacknowledged delivery is retried after 1m and 5m (scale 1) with the same request id, until acknowledged', async () => {
    receiver.answers = ['http500', 'wrongBody'];
    await emit({ n: 1 });
    expect(receiver.received).toHaveLength(1);
    const [entry] = sandbox.deliveries.log();
    expect(entry).toMatchObject({ status: 'pending', nextAttemptAt: sandbox.clock.now() + 60_000 });

    await expectNextDeliveryIn(60_000);
    expect(receiver.received).toHaveLength(2);
    await expectNextDeliveryIn(300_000);
    expect(receiver.received).toHaveLength(3);

    const ids = new Set(receiver.received.map((r) => r.headers['x-wsb-request-id']));
    expect(ids.size).toBe(1);
    const [done] = sandbox.deliveries.log();
    expect(done!.status).toBe('delivered');
    expect(done!.attempts.map((a) => [a.attempt, a.httpStatus, a.acknowledged])).toEqual([
      [1, 500, false],
      [2, 200, false],
      [3, 200, true],
    ]);
    expect(done!.attempts.map((a) => a.at - done!.emittedAt)).toEqual([0, 60_000, 360_000]);
  });

  it('the log is readable over HTTP, filtered by status', async () => {
    await emit({ n: 1 });
    const res = await helperPost(sandbox, 'webhooks/log', { status: 'delivered' });
    const entries = res.json.data as Array<Record<string, unknown>>;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ category: 'card_transaction', status: 'delivered', url: receiver.url });
    expect((await helperPost(sandbox, 'webhooks/log', { status: 'failed' })).json.data).toEqual([]);
  });
});

describe('retry schedule scaled by webhookRetryScale', () => {
  it('with scale 0.001 the six retries come 60ms, 300ms, 1.2s, 3.6s, 43.2s, 86.4s of sandbox time apart, then the event fails', async () => {
    await start(0.001);
    receiver.answers = Array.from({ length: 7 }, () => 'http500' as const);
    await emit({ n: 1 });
    for (const interval of WEBHOOK_RETRY_SCHEDULE_MS) await expectNextDeliveryIn(interval * 0.001);
    const [entry] = sandbox.deliveries.log();
    expect(entry).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(entry!.attempts).toHaveLength(7);
    await advance(10 * 86_400_000);
    expect(receiver.received).toHaveLength(7);
  });

  it('webhooks/config changes the URL and the scale at runtime', async () => {
    await start(1);
    const other = await new WebhookReceiver().start();
    try {
      const res = await helperPost(sandbox, 'webhooks/config', { url: other.url, retryScale: 0.5 });
      expect(plain(res.json.data)).toEqual({ url: other.url, retryScale: 0.5 });
      other.answers = ['http500'];
      await emit({ n: 1 });
      expect(other.received).toHaveLength(1);
      expect(receiver.received).toHaveLength(0);
      expect(sandbox.deliveries.log()[0]!.nextAttemptAt).toBe(sandbox.clock.now() + 30_000);
      expect((await helperPost(sandbox, 'webhooks/config', { url: 'ftp://x' })).json.success).toBe(false);
      await helperPost(sandbox, 'webhooks/config', { url: null });
      await emit({ n: 2 });
      expect(sandbox.deliveries.log()[1]!.status).toBe('no_url');
    } finally {
      await other.stop();
    }
  });
});

describe('webhook faults', () => {
  beforeEach(() => start(1));

  it('drop: the event is never sent and is logged as dropped', async () => {
    sandbox.setFaults({ webhookDropRate: 1 });
    await emit({ n: 1 });
    await advance(86_400_000);
    expect(receiver.received).toHaveLength(0);
    expect(sandbox.deliveries.log()[0]).toMatchObject({ status: 'dropped', faults: ['drop'] });
  });

  it('duplicate: the receiver gets the same event twice with the same request id', async () => {
    sandbox.setFaults({ webhookDuplicateRate: 1 });
    await emit({ n: 1 });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]!.rawBody.equals(receiver.received[1]!.rawBody)).toBe(true);
    expect(receiver.received[0]!.headers['x-wsb-request-id']).toBe(receiver.received[1]!.headers['x-wsb-request-id']);
    expect(sandbox.deliveries.log()[0]!.attempts.map((a) => a.duplicate)).toEqual([false, true]);
  });

  it('reorder: a held event arrives after the next one', async () => {
    sandbox.setFaults({ webhookReorderRate: 1 });
    await emit({ n: 1 });
    expect(receiver.received).toHaveLength(0);
    expect(sandbox.deliveries.log()[0]!.status).toBe('held');
    await emit({ n: 2 });
    expect(receiver.received.map((r) => r.rawBody.toString())).toEqual(['{"n":2}', '{"n":1}']);
  });

  it('reorder: a held event with no successor is released after 5s of sandbox time', async () => {
    sandbox.setFaults({ webhookReorderRate: 1 });
    await emit({ n: 1 });
    await expectNextDeliveryIn(5_000);
    expect(receiver.received).toHaveLength(1);
  });

  it('delay: the first attempt waits webhookDelayMs of sandbox time', async () => {
    sandbox.setFaults({ webhookDelayMs: 30_000 });
    await emit({ n: 1 });
    await expectNextDeliveryIn(30_000);
    expect(receiver.received).toHaveLength(1);
    expect(sandbox.deliveries.log()[0]).toMatchObject({ status: 'delivered', faults: ['delay'] });
  });
});

/**
 * The receiver's shutdown (webhooks/main.ts on SIGTERM, platform/health/drain.ts): readiness fails
 * first, while new connections are still accepted and webhooks still handled; only when the drain
 * ends does it stop accepting. The drain interval is a promise the test ends, so nothing is timed.
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRsaKeyPair } from '../../../../provider/keys';
import { buildSignedWebhook } from '../../../../provider/signing';
import { createDrain } from '../../../../platform/health/drain';
import { healthRoutes } from '../../../../platform/health/routes';
import type { EventForwarder } from '../../../../webhooks/forwarder';
import { type WebhookReceiver, startWebhookReceiver } from '../../../../webhooks/receiver';

const platform = generateRsaKeyPair();
const forwarder: EventForwarder = { forward: async () => ['onboarding-drain-1/card'] };
const body =
  '{"orderNo":"O1","merchantOrderNo":"CFabc0123456789abcdef0123456789","cardNo":"C100","currency":"USD","amount":100.10,"fee":1.00,"type":"create","status":"success","transactionTime":1700000000000}';

/** One request on a connection of its own (no keep-alive): a refused connection rejects. */
function onNewConnection(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.once('error', reject);
    req.end(init.body);
  });
}

let dir: string;
let receiver: WebhookReceiver;
afterEach(async () => {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('fails readiness while connections are still accepted, and stops accepting only after the drain', async () => {
  let endDrain!: () => void;
  const drainEnded = new Promise<void>((resolve) => (endDrain = resolve));
  const waited: number[] = [];
  const drain = createDrain(5_000, (ms) => {
    waited.push(ms);
    return drainEnded;
  });
  dir = mkdtempSync(path.join(tmpdir(), 'cardflow-drain-'));
  receiver = await startWebhookReceiver({
    platformPublicKey: platform.publicKeyBase64Der,
    forwarder,
    dataDir: dir,
    health: healthRoutes([drain.check]),
  });
  const origin = new URL(receiver.url).origin;
  expect((await onNewConnection(`${origin}/readyz`)).status).toBe(200);

  const stopped = drain.drainThenStop(() => receiver.stop());
  expect(drain.draining).toBe(true);
  expect(waited).toEqual([5_000]);

  const ready = await onNewConnection(`${origin}/readyz`);
  expect(ready.status).toBe(503);
  expect(JSON.parse(ready.text)).toMatchObject({
    ready: false,
    checks: [{ name: 'draining', ok: false }],
  });
  // Still accepting and handling: a balancer that has not noticed yet loses nothing.
  const signed = buildSignedWebhook({
    body,
    category: 'card',
    requestId: 'drain-1',
    platformPrivateKey: platform.privateKey,
  });
  const delivered = await onNewConnection(receiver.url, { method: 'POST', headers: signed.headers, body: signed.body });
  expect(delivered.status).toBe(200);
  expect(drain.drainThenStop(() => receiver.stop())).toBe(stopped);

  endDrain();
  await stopped;
  await expect(onNewConnection(`${origin}/healthz`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
});

/**
 * The shell with the real engine: nothing changes on a refused request, a response dropped
 * after commit then a retry leaves one order, and engine events arrive as webhooks that
 * provider/'s verifier accepts, with payloads equal to the matching query record.
 */
import { createProviderClient } from '../../../../provider/client';
import { isDuplicateOrderFailure, ProviderTransportError } from '../../../../provider/errors';
import { stringifyJson } from '../../../../provider/json';
import { operations } from '../../../../provider/operations';
import { signBody, verifyWebhook } from '../../../../provider/signing';
import { SandboxErrorCode } from '../../../../tools/sandbox/contract';
import { type RunningSandbox, ZERO_DELAYS, startSandbox } from '../../../../tools/sandbox/index';
import { WebhookReceiver, send, signedPost } from './support';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

// Real servers and RSA keys: allow for a loaded machine (the project-level testTimeout does not
// reach here).
jest.setTimeout(30_000);

const SUBSCRIPTION = CARD_TYPE_IDS.subscription;
const CREATE_CARD = '/merchant/core/mcb/card/v2/createCard';
const createBody = (merchantOrderNo: string) =>
  `{"merchantOrderNo":"${merchantOrderNo}","cardTypeId":${SUBSCRIPTION},"amount":0}`;

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;

beforeEach(async () => {
  receiver = await new WebhookReceiver().start();
  sandbox = await startSandbox({ clock: 'manual', delays: ZERO_DELAYS, webhookUrl: receiver.url });
});
afterEach(async () => {
  await sandbox.stop();
  await receiver.stop();
});

async function cardOrders(merchantOrderNo: string): Promise<unknown[]> {
  const client = createProviderClient(sandbox.clientConfig());
  try {
    return (await client.listCardTransactions({ merchantOrderNo, pageNum: 1, pageSize: 100 })).records;
  } finally {
    await client.close();
  }
}

it('a refused request (unknown key, bad signature, rule break) changes nothing', async () => {
  const before = stringifyJson(sandbox.engine.moneySnapshot());
  const no = 'ENG-REFUSED-000000001';
  const body = createBody(no);
  const unknownKey = await send(sandbox.url, CREATE_CARD, body, {
    'content-type': 'application/json',
    'x-wsb-api-key': 'sandbox_unknown',
    'x-wsb-signature': signBody(body, sandbox.keys.merchant.privateKey),
  });
  expect(String(unknownKey.json.code)).toBe(String(SandboxErrorCode.unauthorized));
  const badSignature = await send(sandbox.url, CREATE_CARD, body, {
    'content-type': 'application/json',
    'x-wsb-api-key': sandbox.keys.apiKey,
    'x-wsb-signature': signBody(createBody('ENG-OTHER-0000000001'), sandbox.keys.merchant.privateKey),
  });
  expect(String(badSignature.json.code)).toBe(String(SandboxErrorCode.badSignature));
  const ruleBreak = await signedPost(
    sandbox,
    CREATE_CARD,
    `{"merchantOrderNo":"${no}","cardTypeId":${SUBSCRIPTION},"amount":5}`,
  );
  expect(String(ruleBreak.json.code)).toBe(String(SandboxErrorCode.parameter));
  expect(String(ruleBreak.json.msg)).toMatch(/^amount: /);
  await sandbox.clock.settle();
  expect(stringifyJson(sandbox.engine.moneySnapshot())).toBe(before);
  expect(await cardOrders(no)).toEqual([]);
  // Not even the merchantOrderNo was consumed: the same number still works once signed.
  expect((await signedPost(sandbox, CREATE_CARD, body)).json.success).toBe(true);
  expect(await cardOrders(no)).toHaveLength(1);
});

it('a response dropped after commit, then a retry with the same merchantOrderNo, leaves exactly one order', async () => {
  sandbox.setFaults({ dropResponseRate: 1, operations: ['createCard'], remaining: 1 });
  const no = 'ENG-DROPPED-000000001';
  await expect(signedPost(sandbox, CREATE_CARD, createBody(no))).rejects.toThrow(/socket hang up|ECONNRESET/);
  await sandbox.clock.settle();
  const retry = await signedPost(sandbox, CREATE_CARD, createBody(no));
  expect(retry.json.success).toBe(false);
  expect(isDuplicateOrderFailure(Number(String(retry.json.code)), retry.json.msg as string)).toBe(true);
  const orders = await cardOrders(no);
  expect(orders).toHaveLength(1);
  expect(orders[0]).toMatchObject({ merchantOrderNo: no, type: 'create', status: 'success' });
});

it('through the client: the dropped call surfaces as an ambiguous transport failure, not resent, and one order exists', async () => {
  sandbox.setFaults({ dropResponseRate: 1, operations: ['createCard'], remaining: 1 });
  const client = createProviderClient(sandbox.clientConfig());
  try {
    const no = 'ENG-DROPPED-000000002';
    const error = await client
      .createCard({ merchantOrderNo: no, cardTypeId: SUBSCRIPTION, amount: '0' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderTransportError);
    expect(error).toMatchObject({ retryable: true, merchantOrderNo: no });
    await sandbox.clock.settle();
    expect(await cardOrders(no)).toHaveLength(1);
  } finally {
    await client.close();
  }
});

it('engine events arrive signed; provider/ verifies them; the payload equals the query record', async () => {
  const no = 'ENG-WEBHOOK-000000001';
  expect((await signedPost(sandbox, CREATE_CARD, createBody(no))).json.success).toBe(true);
  await sandbox.clock.settle();
  await sandbox.deliveries.idle();
  const cardEvents = receiver.received.filter((r) => r.headers['x-wsb-category'] === 'card_transaction');
  expect(cardEvents.length).toBeGreaterThan(0);
  const requestIds = new Set<string>();
  for (const event of cardEvents) {
    const verified = verifyWebhook({
      rawBody: event.rawBody,
      headers: event.headers,
      platformPublicKey: sandbox.keys.platform.publicKey,
    });
    requestIds.add(verified.requestId!);
  }
  expect(requestIds.size).toBe(cardEvents.length);
  const last = verifyWebhook({
    rawBody: cardEvents.at(-1)!.rawBody,
    headers: cardEvents.at(-1)!.headers,
    platformPublicKey: sandbox.keys.platform.publicKey,
  });
  const [record] = await cardOrders(no);
  expect(operations.listCardTransactions.record.parse(last.payload)).toEqual(record);
  expect(sandbox.deliveries.log().every((d) => d.status === 'delivered')).toBe(true);
});

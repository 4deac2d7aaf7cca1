/**
 * The 3DS relay activity on its own, against the sandbox (`/sandbox/issue3ds` makes the records)
 * and a real HTTP backend: given only a record's tradeNo and cardNo, it reads the record, opens its
 * one-time code or authorization URL and delivers it as a `card.three_ds` event the client's
 * constructEvent verifies, before the record expires; a backend answering 500 makes an attempt
 * fail retryably; past the expiration time it stops, records the failure without the value and
 * fails for good. What it returns (what a workflow history would hold) carries no value.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities, type ThreeDsRelayOutcome } from '../../../activities';
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { NotificationTypes } from '../../../domain/notifications';
import { openFileUndeliveredStore, type UndeliveredStore } from '../../../platform/notifications/store';
import { startSandbox, type RunningSandbox } from '../../../tools/sandbox';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import { ZERO_DELAYS } from '../../../tools/sandbox/delays';
import { startNotificationBackend, type NotificationBackend } from '../../support/notification-backend';

const SECRET = 'three-ds-relay-secret-0123456789abcdef012';
const FIVE_MINUTES = 5 * 60_000;

let sandbox: RunningSandbox;
let provider: ProviderClient;
let backend: NotificationBackend;
let store: UndeliveredStore;
let cardNo: string;

beforeAll(async () => {
  // A manual clock started ten minutes back: a record issued at once expired five minutes ago;
  // after the clock is advanced to now, a record issued has its five minutes ahead.
  sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'manual', clockStart: Date.now() - 2 * FIVE_MINUTES });
  provider = createProviderClient(sandbox.clientConfig());
  backend = await startNotificationBackend();
  store = await openFileUndeliveredStore(await mkdtemp(join(tmpdir(), 'cardflow-3ds-')));
  const card = await provider.createCard({
    merchantOrderNo: `T${randomUUID().replace(/-/g, '')}`.slice(0, 32),
    cardTypeId: CARD_TYPE_IDS.subscription,
    amount: '0',
  });
  cardNo = card.cardNo;
});

afterAll(async () => {
  await backend?.close();
  await provider?.close();
  await sandbox?.stop();
});

function relay(input: { cardNo: string; tradeNo: string }): Promise<ThreeDsRelayOutcome> {
  const activities = createActivities({
    provider,
    merchantPrivateKey: sandbox.keys.merchant.privateKey,
    notifications: {
      target: { url: backend.url, secrets: [SECRET], format: 'cardflow' },
      deliveryWindowMs: 60_000,
      store,
    },
  });
  return new MockActivityEnvironment({ workflowExecution: { workflowId: `card-${cardNo}`, runId: 'r1' } }).run<
    [typeof input],
    ThreeDsRelayOutcome,
    typeof activities.relayThreeDs
  >(activities.relayThreeDs, input);
}

async function issue(type: 'third_3ds_otp' | 'auth_url') {
  return (await sandbox.engine.helpers.issue3ds!({ cardNo, type, amount: '12.34', merchantName: 'ACME SHOP' })) as {
    tradeNo: string;
    value: string;
  };
}

it('refuses a record past its expiration: recorded undeliverable without its value, failed for good', async () => {
  const { tradeNo, value } = await issue('third_3ds_otp');
  const error = await relay({ cardNo, tradeNo }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApplicationFailure);
  expect(error).toMatchObject({ type: 'ThreeDsExpired', nonRetryable: true });
  expect((error as Error).message).not.toContain(value);
  const recorded = await store.get(`evt_3ds_${tradeNo}`);
  expect(recorded).toMatchObject({ type: NotificationTypes.cardThreeDs, workflowId: `card-${cardNo}` });
  expect(recorded!.body).toBeUndefined();
  expect(JSON.stringify(recorded)).not.toContain(value);
  expect(backend.received.some((r) => r.body.includes(tradeNo))).toBe(false);
});

it('delivers the one-time code and the authorization URL as signed events before they expire, returning neither', async () => {
  await sandbox.clock.advance(2 * FIVE_MINUTES);
  for (const type of ['third_3ds_otp', 'auth_url'] as const) {
    const { tradeNo, value } = await issue(type);
    const outcome = await relay({ cardNo, tradeNo });
    expect(outcome).toEqual({ eventId: `evt_3ds_${tradeNo}`, expiresAt: expect.any(Number) });
    expect(JSON.stringify(outcome)).not.toContain(value);
    expect(outcome.expiresAt).toBeGreaterThan(Date.now());

    const [event] = backend.delivered(SECRET).filter((e) => e.id === outcome.eventId);
    expect(event).toMatchObject({
      type: NotificationTypes.cardThreeDs,
      workflowId: `card-${cardNo}`,
      data: {
        cardNo,
        tradeNo,
        kind: type,
        ...(type === 'auth_url' ? { authUrl: value } : { otp: value }),
        amount: '12.34',
        merchantName: 'ACME SHOP',
        expiresAt: new Date(outcome.expiresAt).toISOString(),
      },
    });
  }
});

it('an attempt the backend answers 500 fails retryably; the retry delivers the same event', async () => {
  const { tradeNo } = await issue('third_3ds_otp');
  backend.failNext(1);
  const error = await relay({ cardNo, tradeNo }).catch((e: unknown) => e);
  expect(error).toMatchObject({ type: 'NotificationNotDelivered', nonRetryable: false });
  const outcome = await relay({ cardNo, tradeNo });
  const copies = backend.received.filter((r) => r.body.includes(tradeNo));
  expect(copies.map((r) => r.status)).toEqual([500, 200]);
  expect(new Set(copies.map((r) => (JSON.parse(r.body) as { id: string }).id))).toEqual(new Set([outcome.eventId]));
});

it('a record not found (not visible yet) is retryable', async () => {
  await expect(relay({ cardNo, tradeNo: '9999999999999999999' })).rejects.toMatchObject({
    type: 'ThreeDsRecordNotFound',
    nonRetryable: false,
  });
});

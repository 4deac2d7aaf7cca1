/**
 * The lifecycle tests' world: the onboarding harness (sandbox, webhook receiver, dev server) with
 * a worker whose activities also hold the merchant private key (sealed PINs, activation codes)
 * and a file store directory; plus cards made directly through the provider API as fixtures.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderClient } from '../../../provider/client';
import { add, cmp, sub } from '../../../provider/money';
import type { CardflowActivities, NotificationDeps } from '../../../activities';
import { sealPin } from '../../../activities/secrets';
import { luhnCheckDigit } from '../../../tools/sandbox/random';
import { createDirectoryFileStore, type FileStore } from '../../../platform/storage/file-store';
import { b2cHolder, requestFields } from '../../fixtures/holders';
import { harnessWorkerEnv, runCardflowWorker, startHarness, type Harness, type HarnessOptions } from './harness';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import { plainJson } from '../../../provider/json';

export { FAST_WAIT, CARD_TYPES } from './harness';

export const PHYSICAL_TYPE = CARD_TYPE_IDS.physicalB2C;
export const BUDGET_TYPE = CARD_TYPE_IDS.budget;
export const SUBSCRIPTION_TYPE = CARD_TYPE_IDS.subscription;

export interface CardHarness extends Harness {
  /**
   * The directory of the workers' file store (worker processes get it as CARDFLOW_FILE_STORE_DIR).
   */
  fileStoreDir: string;
  /** The store on that directory, as a backend puts supporting files into it. */
  fileStore: FileStore;
  /**
   * Runs `fn` while a worker with the merchant key and the file store polls the task queue;
   * `provider` replaces the activities' provider client (e.g. one that records calls), and
   * `notifications` has it notify a backend.
   */
  withCardWorker<T>(
    fn: () => Promise<T>,
    options?: {
      overrides?: Partial<CardflowActivities>;
      provider?: ProviderClient;
      notifications?: NotificationDeps;
    },
  ): Promise<T>;
  /** The PIN sealed as a backend would (merchant public key). */
  seal(pin: string): string;
  /** Calls a sandbox test helper (tools/sandbox/README.md) and returns its JSON result. */
  helper<T = Record<string, unknown>>(name: string, body: Record<string, unknown>): Promise<T>;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const PDF = Buffer.from('%PDF-1.4\n% proof of delivery\n');

export async function startCardHarness(options: HarnessOptions = {}): Promise<CardHarness> {
  const h = await startHarness(options);
  const fileStoreDir = await mkdtemp(join(tmpdir(), 'cardflow-files-'));
  const fileStore = createDirectoryFileStore(fileStoreDir);
  await writeFile(join(fileStoreDir, 'delivery-note.pdf'), PDF);
  await writeFile(join(fileStoreDir, 'card-photo.png'), PNG);
  return {
    ...h,
    fileStoreDir,
    fileStore,
    withCardWorker: (fn, { overrides, provider = h.provider, notifications } = {}) =>
      runCardflowWorker(
        {
          taskQueue: h.taskQueue,
          activityDeps: {
            provider,
            merchantPrivateKey: h.sandbox.keys.merchant.privateKey,
            fileStore,
            routes: h.routes,
            ...(notifications ? { notifications } : {}),
          },
          ...(overrides ? { activityOverrides: overrides } : {}),
        },
        fn,
      ),
    seal: (pin) => sealPin(pin, h.sandbox.keys.merchant.publicKey),
    async helper<T>(name: string, body: Record<string, unknown>): Promise<T> {
      const run = h.sandbox.engine.helpers[name];
      if (!run) throw new Error(`no sandbox helper ${name}`);
      return plainJson(await run(body)) as T;
    },
  };
}

/**
 * The environment of a real worker process (support/worker-process.ts) serving `taskQueue` for this
 * harness: the sandbox's keys, the file store, the tier's Temporal server, the test's codec keys,
 * and `providerUrl` as its provider (a gate in front of the sandbox, so a kill can land mid-call).
 */
export function workerProcessEnv(
  h: CardHarness,
  opts: { providerUrl: string; taskQueue: string; codecKeys: string },
): Record<string, string> {
  return { ...harnessWorkerEnv(h, opts), CARDFLOW_FILE_STORE_DIR: h.fileStoreDir };
}

export function testOrderNo(): string {
  return `T${randomUUID().replace(/-/g, '')}`.slice(0, 32);
}

/** Polls `read` until `done` (the sandbox's zero delays still run asynchronously). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The three ID images a B2C holder needs (idFrontId, idBackId, idHoldId), uploaded; their file ids.
 */
export async function uploadIdImages(provider: ProviderClient): Promise<string[]> {
  const fileIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const uploaded = await provider.uploadFile({
      category: 'card',
      file: { filename: `id-${i}.png`, contentType: 'image/png', data: PNG },
    });
    fileIds.push(uploaded.fileId);
  }
  return fileIds;
}

/** An approved B2C holder of the physical bin, made through the provider API; its holderId. */
export async function approvedPhysicalHolder(provider: ProviderClient): Promise<string> {
  const fileIds = await uploadIdImages(provider);
  const unique = randomUUID().replace(/-/g, '').slice(0, 10);
  const holder = await provider.createCardholder({
    cardHolderModel: 'B2C',
    merchantOrderNo: testOrderNo(),
    cardTypeId: PHYSICAL_TYPE,
    ...requestFields(b2cHolder({ email: `grace+${unique}@example.com`, idNumber: `P${unique}`, fileIds })),
  });
  await eventually(
    async () =>
      (await provider.queryCardholders({ pageNum: 1, pageSize: 10, holderId: holder.holderId })).records[0]?.status,
    (s) => s === 'pass_audit',
    'cardholder approval',
  );
  return holder.holderId;
}

/**
 * A fresh number printed on a card of the physical bin (valid check digit), never the masked one.
 */
export function printedCardNumber(): string {
  const body = `522981${(1 + (randomBytes(4).readUInt32BE(0) % 999_999_998)).toString().padStart(9, '0')}`;
  return body + luhnCheckDigit(body);
}

/** An approved B2C holder with an un_activated physical card (card type 1852379830190366723). */
export async function physicalCard(provider: ProviderClient): Promise<{ cardNo: string; holderId: string }> {
  const holderId = await approvedPhysicalHolder(provider);
  const card = await provider.createCard({
    merchantOrderNo: testOrderNo(),
    holderId,
    cardTypeId: PHYSICAL_TYPE,
    amount: '50',
    cardNumber: printedCardNumber(),
  });
  await eventually(
    async () => (await provider.getCardInfo({ cardNo: card.cardNo })).status,
    (s) => s === 'un_activated',
    'physical card',
  );
  return { cardNo: card.cardNo, holderId };
}

/**
 * A physical card activated through the provider API with `pin` (status Normal), for operations on
 * a card in use; with the activation code it took, a secret no history may hold.
 */
export async function activePhysicalCard(
  h: CardHarness,
  pin = '111111',
): Promise<{ cardNo: string; activationCode: string }> {
  const { cardNo } = await physicalCard(h.provider);
  const issued = await h.helper<{ activationCode: string }>('issueActivationCode', { cardNo });
  await h.provider.activatePhysicalCard({
    merchantOrderNo: testOrderNo(),
    cardNo,
    pin,
    activeCode: issued.activationCode,
  });
  await eventually(
    async () => (await h.provider.getCardInfo({ cardNo })).status,
    (s) => s === 'Normal',
    'physical card activation',
  );
  return { cardNo, activationCode: issued.activationCode };
}

/** A Normal virtual card (no holder), optionally charged to `accountId`, with `deposit` on it. */
export async function virtualCard(
  provider: ProviderClient,
  options: { cardTypeId?: string; accountId?: string; deposit?: string } = {},
): Promise<string> {
  const cardTypeId = options.cardTypeId ?? SUBSCRIPTION_TYPE;
  const card = await provider.createCard({
    merchantOrderNo: testOrderNo(),
    cardTypeId,
    amount: '0',
    ...(options.accountId ? { accountId: options.accountId } : {}),
  });
  await eventually(
    async () => (await provider.getCardInfo({ cardNo: card.cardNo })).status,
    (s) => s === 'Normal',
    'virtual card',
  );
  if (options.deposit) {
    const op = await provider.depositCard({
      merchantOrderNo: testOrderNo(),
      cardNo: card.cardNo,
      amount: options.deposit,
    });
    await eventually(
      async () =>
        (await provider.listCardTransactions({ pageNum: 1, pageSize: 10, merchantOrderNo: op.merchantOrderNo }))
          .records[0]?.status,
      (s) => s === 'success',
      'fixture deposit',
    );
  }
  return card.cardNo;
}

export async function account(provider: ProviderClient, accountId: string) {
  return provider.getAccount({ accountId });
}

/**
 * A wallet funding's input: 200 USDT_TRC20 expected, what arrives moved on to `margin`, which
 * deposits the most it pays for to the budget card `cardNo`.
 */
export function fundingToBudgetCard(margin: string, cardNo: string) {
  return {
    coinKey: 'USDT_TRC20',
    expectedAmount: '200',
    transfer: { payeeAccountId: margin },
    cardDeposit: { cardNo, cardTypeId: BUDGET_TYPE },
  };
}

/**
 * After a wallet funding, the margin account holds `before` plus what reached it, less the card
 * deposit and fee it paid.
 */
export async function expectMarginAfterFunding(
  provider: ProviderClient,
  margin: string,
  before: string,
  received: string,
  deposit: { amount: string; fee: string },
): Promise<void> {
  const expected = sub(add(before, received), add(deposit.amount, deposit.fee));
  expect(cmp((await account(provider, margin)).availableBalance, expected)).toBe(0);
}

/**
 * The card has exactly one work order, a successful CARD_ACTIVE (its activation was submitted
 * once), matching `also`.
 */
export async function expectOneActivationWorkOrder(
  provider: ProviderClient,
  cardNo: string,
  also: Record<string, unknown> = {},
): Promise<void> {
  const orders = await provider.listWorkOrders({ target: cardNo, pageSize: 100 });
  expect(orders.records).toHaveLength(1);
  expect(orders.records[0]).toMatchObject({ tradeType: 'CARD_ACTIVE', tradeStatus: 'success', ...also });
}

export async function walletAccount(provider: ProviderClient) {
  const wallet = (await provider.getAccountInfo()).find((a) => a.accountType === 'WALLET');
  if (!wallet) throw new Error('no wallet');
  return wallet;
}

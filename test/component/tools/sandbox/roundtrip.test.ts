/**
 * Every operation of the registry, signed, through provider/'s client, against the sandbox with its
 * real engine: for each of the 46 operations a signed round trip through provider/ whose
 * response passes the schema. The client verifies the response signature and parses
 * `data` with the operation's record schema, so a resolved call is a passing round trip.
 * The examples run in order on one sandbox: later ones use what earlier ones created.
 */
import { type ProviderClient, createProviderClient } from '../../../../provider/client';
import { operations } from '../../../../provider/operations';
import { type RunningSandbox, ZERO_DELAYS, startSandbox } from '../../../../tools/sandbox/index';
import { luhnCheckDigit } from '../../../../tools/sandbox/random';
import { b2bHolder, b2cHolder, requestFields } from '../../../fixtures/holders';
import { helperPost, plain } from './support';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

// Real servers and RSA keys: allow for a loaded machine (the project-level testTimeout does not
// reach here).
jest.setTimeout(30_000);

const TYPES = {
  b2bVirtual: CARD_TYPE_IDS.b2bVirtual,
  subscription: CARD_TYPE_IDS.subscription,
  physicalB2C: CARD_TYPE_IDS.physicalB2C,
} as const;
const PNG = {
  filename: 'id.png',
  contentType: 'image/png',
  data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
};

let seq = 0;
const orderNo = () => `RT${String(++seq).padStart(22, '0')}`;

const b2b = (email: string) => requestFields(b2bHolder(email));
const idv = (email: string) => ({
  areaCode: '+1',
  mobile: '4155550101',
  email,
  firstName: 'Alan',
  lastName: 'Turing',
  annualSalary: '90000 USD',
  accountPurpose: 'Online shopping',
  expectedMonthlyVolume: '1000 USD',
  idvShareToken: 'idv-share-token-123',
  ipAddress: '203.0.113.9',
});

interface Ctx {
  walletId: string;
  sharedId: string;
  cardNo: string;
  physicalCardNo: string;
  activationCode: string;
  rejected: { v1: string; v2: string; idv: string };
  files: string[];
}

type Example = (c: ProviderClient, ctx: Ctx) => Promise<unknown>;

/** One valid request per operation, in the order they run. */
const EXAMPLES: Array<[keyof typeof operations, Example]> = [
  ['listCoins', (c) => c.listCoins({})],
  ['createWalletAddress', (c) => c.createWalletAddress({ coinKey: 'USDT_TRC20' })],
  ['listWalletAddresses', (c) => c.listWalletAddresses({})],
  ['walletDepositOrder', (c) => c.walletDepositOrder({ chain: 'TRC20', amount: '100' })],
  ['walletDepositTransactions', (c) => c.walletDepositTransactions({ pageNum: 1, pageSize: 10 })],
  ['listWalletTransactions', (c) => c.listWalletTransactions({ pageNum: 1, pageSize: 10 })],
  ['getAccountInfo', (c) => c.getAccountInfo({})],
  ['listAccounts', (c) => c.listAccounts({ pageNum: 1, pageSize: 10 })],
  ['getAccount', (c, ctx) => c.getAccount({ accountId: ctx.walletId })],
  [
    'createSharedAccount',
    async (c, ctx) => {
      const account = await c.createSharedAccount({ accountName: 'Team budget' });
      ctx.sharedId = account.accountId;
      return account;
    },
  ],
  [
    'transferFunds',
    (c, ctx) =>
      c.transferFunds({
        type: 'TRANSFER',
        merchantOrderNo: orderNo(),
        amount: '25.50',
        payerAccountId: ctx.walletId,
        payeeAccountId: ctx.sharedId,
      }),
  ],
  ['listLedgerEntries', (c) => c.listLedgerEntries({ pageNum: 1, pageSize: 10 })],
  ['listCardTypes', (c) => c.listCardTypes({})],
  ['openCard', (c) => c.openCard({ merchantOrderNo: orderNo(), cardTypeId: TYPES.subscription })],
  [
    'createCard',
    async (c, ctx) => {
      const record = await c.createCard({ merchantOrderNo: orderNo(), cardTypeId: TYPES.subscription, amount: '0' });
      ctx.cardNo = record.cardNo;
      return record;
    },
  ],
  ['getCardInfo', (c, ctx) => c.getCardInfo({ cardNo: ctx.cardNo, onlySimpleInfo: false })],
  ['getCardSensitiveData', (c, ctx) => c.getCardSensitiveData({ cardNo: ctx.cardNo })],
  ['getCardBalance', (c, ctx) => c.getCardBalance({ cardNo: ctx.cardNo })],
  ['depositCard', (c, ctx) => c.depositCard({ cardNo: ctx.cardNo, merchantOrderNo: orderNo(), amount: '20' })],
  ['freezeCardV1', (c, ctx) => c.freezeCardV1({ cardNo: ctx.cardNo })],
  ['unfreezeCardV1', (c, ctx) => c.unfreezeCardV1({ cardNo: ctx.cardNo })],
  [
    'freezeCard',
    (c, ctx) => c.freezeCard({ cardNo: ctx.cardNo, merchantOrderNo: orderNo(), clientRemark: 'lost wallet' }),
  ],
  ['unfreezeCard', (c, ctx) => c.unfreezeCard({ cardNo: ctx.cardNo, merchantOrderNo: orderNo() })],
  [
    'activatePhysicalCard',
    (c, ctx) =>
      c.activatePhysicalCard({
        merchantOrderNo: orderNo(),
        cardNo: ctx.physicalCardNo,
        pin: '123456',
        activeCode: ctx.activationCode,
        noPinPaymentAmount: '300',
      }),
  ],
  ['updatePin', (c, ctx) => c.updatePin({ cardNo: ctx.physicalCardNo, merchantOrderNo: orderNo(), pin: '654321' })],
  ['listCardPurchases', (c) => c.listCardPurchases({ pageNum: 1, pageSize: 10 })],
  ['listCardTransactionsV1', (c) => c.listCardTransactionsV1({ type: 'deposit', pageNum: 1, pageSize: 10 })],
  ['listCardTransactions', (c) => c.listCardTransactions({ pageNum: 1, pageSize: 10 })],
  ['listCardAuthTransactions', (c) => c.listCardAuthTransactions({ pageNum: 1, pageSize: 10 })],
  ['listCardAuthFees', (c) => c.listCardAuthFees({ pageNum: 1, pageSize: 10 })],
  ['listCard3dsRecords', (c) => c.listCard3dsRecords({ pageNum: 1, pageSize: 10 })],
  ['listOccupations', (c) => c.listOccupations({})],
  [
    'createCardholderV1',
    (c) =>
      c.createCardholderV1({
        merchantOrderNo: orderNo(),
        cardTypeId: TYPES.b2bVirtual,
        ...b2b('v1.create@example.com'),
        nationality: 'US',
      }),
  ],
  [
    'updateCardholderV1',
    (c, ctx) => c.updateCardholderV1({ holderId: ctx.rejected.v1, ...b2b('v1.fixed@example.com'), nationality: 'US' }),
  ],
  [
    'createCardholder',
    (c) =>
      c.createCardholder({
        cardHolderModel: 'B2B',
        merchantOrderNo: orderNo(),
        cardTypeId: TYPES.b2bVirtual,
        ...b2b('v2.create@example.com'),
      }),
  ],
  [
    'updateCardholder',
    (c, ctx) =>
      c.updateCardholder({ cardHolderModel: 'B2B', holderId: ctx.rejected.v2, ...b2b('v2.fixed@example.com') }),
  ],
  [
    'createCardholderIdv',
    (c) =>
      c.createCardholderIdv({
        merchantOrderNo: orderNo(),
        cardTypeId: TYPES.b2bVirtual,
        ...idv('idv.create@example.com'),
      }),
  ],
  [
    'updateCardholderIdv',
    (c, ctx) => c.updateCardholderIdv({ holderId: ctx.rejected.idv, ...idv('idv.fixed@example.com') }),
  ],
  ['queryCardholders', (c) => c.queryCardholders({ pageNum: 1, pageSize: 10 })],
  ['listRegions', (c) => c.listRegions({})],
  ['listCities', (c) => c.listCities({ regionCode: 'US' })],
  ['listCityTree', (c) => c.listCityTree({ regionCode: 'US' })],
  ['listMobileAreaCodes', (c) => c.listMobileAreaCodes({})],
  ['uploadFile', (c) => c.uploadFile({ category: 'card', file: PNG })],
  [
    'submitWorkOrder',
    (c, ctx) =>
      c.submitWorkOrder({
        merchantOrderNo: orderNo(),
        title: 'Question',
        target: ctx.cardNo,
        content: 'Statement please',
        tradeType: 'OTHER',
      }),
  ],
  ['listWorkOrders', (c) => c.listWorkOrders({ pageNo: 1, pageSize: 10 })],
];

/** Lists and pages that may legitimately be empty after the steps above. */
const MAY_BE_EMPTY = new Set<string>(['listCardAuthFees']);

let sandbox: RunningSandbox;
let client: ProviderClient;
const ctx = {} as Ctx;

async function settle(): Promise<void> {
  await sandbox.clock.settle();
}

beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual', delays: ZERO_DELAYS, seed: 42 });
  client = createProviderClient(sandbox.clientConfig());
  ctx.walletId = (await client.getAccountInfo({}))[0]!.accountId;

  // Three cardholders rejected by the platform (magic email), one per update operation.
  const rejected = async (email: string, v1 = false) => {
    const holder = v1
      ? await client.createCardholderV1({
          merchantOrderNo: orderNo(),
          cardTypeId: TYPES.b2bVirtual,
          ...b2b(email),
          nationality: 'US',
        })
      : await client.createCardholder({
          cardHolderModel: 'B2B',
          merchantOrderNo: orderNo(),
          cardTypeId: TYPES.b2bVirtual,
          ...b2b(email),
        });
    await settle();
    return holder.holderId;
  };
  ctx.rejected = {
    v1: await rejected('reject.admin+v1@example.com', true),
    v2: await rejected('reject.admin+v2@example.com'),
    idv: '',
  };
  const idvHolder = await client.createCardholderIdv({
    merchantOrderNo: orderNo(),
    cardTypeId: TYPES.b2bVirtual,
    ...idv('reject.admin+idv@example.com'),
  });
  await settle();
  ctx.rejected.idv = idvHolder.holderId;

  // An approved B2C cardholder with a physical card and its activation code.
  ctx.files = [];
  for (let i = 0; i < 3; i += 1) ctx.files.push((await client.uploadFile({ category: 'card', file: PNG })).fileId);
  const b2c = await client.createCardholder({
    cardHolderModel: 'B2C',
    merchantOrderNo: orderNo(),
    cardTypeId: TYPES.physicalB2C,
    ...requestFields(b2cHolder({ email: 'grace@example.com', idNumber: 'P1234567', fileIds: ctx.files })),
  });
  await settle();
  const printed = '522981000000001';
  const physical = await client.createCard({
    merchantOrderNo: orderNo(),
    holderId: b2c.holderId,
    cardTypeId: TYPES.physicalB2C,
    amount: '50',
    cardNumber: printed + luhnCheckDigit(printed),
  });
  await settle();
  ctx.physicalCardNo = physical.cardNo;
  const issued = await helperPost(sandbox, 'issueActivationCode', { cardNo: physical.cardNo });
  expect(issued.json.success).toBe(true);
  ctx.activationCode = String((plain(issued.json.data) as { activationCode: unknown }).activationCode);
  // An on-chain deposit for the wallet transaction query.
  const deposit = await helperPost(sandbox, 'creditWalletDeposit', { amount: '100', coinKey: 'USDT_TRC20' });
  expect(deposit.json).toMatchObject({ success: true });
  // Authorization records for the record queries.
  const auth = await helperPost(sandbox, 'authorizeCard', {
    cardNo: physical.cardNo,
    type: 'auth',
    amount: '12.34',
    merchantName: 'Coffee',
  });
  expect(auth.json.success).toBe(true);
  await settle();
});

afterAll(async () => {
  await client?.close();
  await sandbox?.stop();
});

it('has an example for every operation of the registry, once', () => {
  expect(EXAMPLES.map(([name]) => name).sort()).toEqual(Object.keys(operations).sort());
  expect(EXAMPLES).toHaveLength(46);
});

describe.each(EXAMPLES)('%s', (name, example) => {
  it(`round trip: signed, enveloped, and its data passes the ${name} schema`, async () => {
    const result = await example(client, ctx);
    await settle();
    expect(result).toBeDefined();
    const op = operations[name];
    if (!MAY_BE_EMPTY.has(name)) {
      if (op.shape === 'list') expect((result as unknown[]).length).toBeGreaterThan(0);
      if (op.shape === 'page') expect((result as { records: unknown[] }).records.length).toBeGreaterThan(0);
    }
  });
});

/**
 * Request rules of accounts, wallet, cards, card records, reference data and work orders:
 * each rule refuses a bad value with a message naming the field (path) and the rule.
 */
import { stringifyJson } from '../../../../provider/json';
import {
  GetAccountRequestSchema,
  ListAccountsRequestSchema,
  ListLedgerEntriesRequestSchema,
  TransferFundsRequestSchema,
} from '../../../../provider/schemas/account';
import {
  ActivatePhysicalCardRequestSchema,
  CreateCardRequestSchema,
  DepositCardRequestSchema,
  FreezeCardRequestSchema,
  OpenCardRequestSchema,
  UpdatePinRequestSchema,
} from '../../../../provider/schemas/card';
import {
  ListCardAuthFeesRequestSchema,
  ListCardAuthTransactionsRequestSchema,
  ListCardTransactionsRequestSchema,
  ListCardTransactionsV1RequestSchema,
} from '../../../../provider/schemas/card-records';
import { ListCitiesRequestSchema } from '../../../../provider/schemas/reference';
import {
  ListWalletTransactionsRequestSchema,
  WalletDepositOrderRequestSchema,
  WalletDepositTransactionsRequestSchema,
} from '../../../../provider/schemas/wallet';
import { ListWorkOrdersRequestSchema, SubmitWorkOrderRequestSchema } from '../../../../provider/schemas/work-order';
import { DAY_MS } from '../../../../provider/rules';
import { issues, itRefusesEach } from './helpers';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

const ORDER_20 = 'm'.repeat(20);
const BIG_ID = CARD_TYPE_IDS.b2bVirtual;

describe('transferFunds request', () => {
  const valid = {
    type: 'TRANSFER',
    merchantOrderNo: ORDER_20,
    amount: '10.50',
    payerAccountId: BIG_ID,
    payeeAccountId: '19847563867367666',
  };

  it('serializes with exact numbers', () => {
    const parsed = TransferFundsRequestSchema.parse(valid);
    expect(stringifyJson(parsed)).toBe(
      `{"type":"TRANSFER","merchantOrderNo":"${ORDER_20}","amount":10.50,"payerAccountId":${BIG_ID},"payeeAccountId":19847563867367666}`,
    );
  });

  itRefusesEach('refuses', TransferFundsRequestSchema, valid, [
    ['type', 'PAYOUT', 'type: must be one of TRANSFER, COLLECTION'],
    ['merchantOrderNo', 'm'.repeat(19), 'merchantOrderNo: length must be 20 to 40 characters'],
    ['merchantOrderNo', 'm'.repeat(41), 'merchantOrderNo: length must be 20 to 40 characters'],
    ['amount', '0', 'amount: must be greater than 0'],
    ['amount', 'ten', 'amount: must be a decimal string such as "10.50"'],
    ['payerAccountId', '12345678901234567890', 'payerAccountId: must be an integer id of at most 19 digits'],
  ]);

  it('refuses a JS number for the amount', () => {
    expect(issues(TransferFundsRequestSchema, { ...valid, amount: 10.5 })).toEqual([
      'amount: must be a decimal string such as "10.50" (JS numbers lose precision)',
    ]);
  });

  it('requires payeeAccountId', () => {
    const { payeeAccountId: _omitted, ...rest } = valid;
    expect(issues(TransferFundsRequestSchema, rest).map((l) => l.split(':')[0])).toEqual(['payeeAccountId']);
  });
});

describe('paging', () => {
  it('defaults pageNum to 1 and pageSize to 10', () => {
    expect(ListCardTransactionsRequestSchema.parse({})).toEqual({ pageNum: 1, pageSize: 10 });
  });

  it('caps pageSize at 100 for records and 10 for the account list', () => {
    expect(issues(ListCardAuthTransactionsRequestSchema, { pageSize: 101 })).toEqual(['pageSize: must be 1 to 100']);
    expect(ListCardAuthTransactionsRequestSchema.parse({ pageSize: 100 }).pageSize).toBe(100);
    expect(issues(ListAccountsRequestSchema, { pageSize: 11 })).toEqual(['pageSize: must be 1 to 10']);
    expect(issues(ListAccountsRequestSchema, { type: 'CHECKING' })).toEqual(['type: must be one of WALLET, MARGIN']);
  });

  it('refuses pageNum 0', () => {
    expect(issues(WalletDepositTransactionsRequestSchema, { pageNum: 0 })).toEqual(['pageNum: must be 1 or more']);
  });
});

describe('time ranges', () => {
  const start = 1_700_000_000_000;

  it('caps wallet v2 transactions at 90 days', () => {
    expect(issues(ListWalletTransactionsRequestSchema, { startTime: start, endTime: start + 90 * DAY_MS })).toEqual([]);
    expect(issues(ListWalletTransactionsRequestSchema, { startTime: start, endTime: start + 90 * DAY_MS + 1 })).toEqual(
      ['endTime: time range must be at most 90 days'],
    );
  });

  it('caps the ledger at 30 days', () => {
    expect(issues(ListLedgerEntriesRequestSchema, { startTime: start, endTime: start + 30 * DAY_MS })).toEqual([]);
    expect(issues(ListLedgerEntriesRequestSchema, { startTime: start, endTime: start + 31 * DAY_MS })).toEqual([
      'endTime: time range must be at most 30 days',
    ]);
  });

  it('requires startTime <= endTime', () => {
    expect(issues(ListCardAuthFeesRequestSchema, { startTime: start + 1, endTime: start })).toEqual([
      'startTime: must not be after endTime',
    ]);
  });

  it('validates enums of the record filters', () => {
    expect(issues(ListCardAuthFeesRequestSchema, { tradeType: 'fee' })).toEqual([
      'tradeType: must be one of card_patch_fee, card_patch_cross_border',
    ]);
    expect(issues(ListWalletTransactionsRequestSchema, { type: 'REFUND' })).toEqual([
      'type: must be one of DEPOSIT, WITHDRAW',
    ]);
    expect(issues(ListLedgerEntriesRequestSchema, { bizType: 'gift' })[0]).toMatch(
      /^bizType: must be one of chain_deposit/,
    );
  });
});

describe('card transaction queries', () => {
  it('v1 requires type; v2 does not', () => {
    expect(issues(ListCardTransactionsV1RequestSchema, {})[0]).toMatch(/^type: must be one of create, deposit/);
    expect(issues(ListCardTransactionsV1RequestSchema, { type: 'blocked' })).toEqual([]);
    expect(issues(ListCardTransactionsRequestSchema, { type: 'refund' })[0]).toMatch(/^type: must be one of/);
  });
});

describe('card requests', () => {
  it('create card: merchantOrderNo 15 to 65, amount required', () => {
    const valid = { merchantOrderNo: 'x'.repeat(15), cardTypeId: BIG_ID, amount: '10' };
    expect(issues(CreateCardRequestSchema, valid)).toEqual([]);
    expect(issues(CreateCardRequestSchema, { ...valid, merchantOrderNo: 'x'.repeat(66) })).toEqual([
      'merchantOrderNo: length must be 15 to 65 characters',
    ]);
    expect(issues(CreateCardRequestSchema, { ...valid, amount: undefined }).map((l) => l.split(':')[0])).toEqual([
      'amount',
    ]);
    expect(stringifyJson(CreateCardRequestSchema.parse(valid))).toBe(
      `{"merchantOrderNo":"${'x'.repeat(15)}","cardTypeId":${BIG_ID},"amount":10}`,
    );
  });

  it('openCard: merchantOrderNo 15 to 65, amount optional', () => {
    expect(issues(OpenCardRequestSchema, { merchantOrderNo: 'x'.repeat(14), cardTypeId: '1' })).toEqual([
      'merchantOrderNo: length must be 15 to 65 characters',
    ]);
    expect(issues(OpenCardRequestSchema, { merchantOrderNo: 'x'.repeat(65), cardTypeId: '1' })).toEqual([]);
  });

  it('PIN is exactly 6 digits', () => {
    const valid = { cardNo: 'C1', merchantOrderNo: ORDER_20, pin: '123456' };
    expect(issues(UpdatePinRequestSchema, valid)).toEqual([]);
    for (const pin of ['12345', '1234567', '12345a']) {
      expect(issues(UpdatePinRequestSchema, { ...valid, pin })).toEqual(['pin: must be exactly 6 digits']);
    }
  });

  it('activation: noPinPaymentAmount 0 to 2000, PIN and merchantOrderNo rules', () => {
    const valid = { merchantOrderNo: ORDER_20, cardNo: 'C1', pin: '000000', activeCode: 'A1' };
    expect(issues(ActivatePhysicalCardRequestSchema, { ...valid, noPinPaymentAmount: '0' })).toEqual([]);
    expect(issues(ActivatePhysicalCardRequestSchema, { ...valid, noPinPaymentAmount: '2000.00' })).toEqual([]);
    expect(issues(ActivatePhysicalCardRequestSchema, { ...valid, noPinPaymentAmount: '2000.01' })).toEqual([
      'noPinPaymentAmount: must be between 0 and 2000',
    ]);
    expect(issues(ActivatePhysicalCardRequestSchema, { ...valid, noPinPaymentAmount: '-1' })).toEqual([
      'noPinPaymentAmount: must be between 0 and 2000',
    ]);
    expect(issues(ActivatePhysicalCardRequestSchema, { ...valid, pin: '12' })).toEqual([
      'pin: must be exactly 6 digits',
    ]);
  });

  it('freeze v2: clientRemark at most 50', () => {
    const valid = { cardNo: 'C1', merchantOrderNo: ORDER_20, clientRemark: 'r'.repeat(50) };
    expect(issues(FreezeCardRequestSchema, valid)).toEqual([]);
    expect(issues(FreezeCardRequestSchema, { ...valid, clientRemark: 'r'.repeat(51) })).toEqual([
      'clientRemark: length must be 0 to 50 characters',
    ]);
  });

  it('deposit: positive amount, merchantOrderNo 20 to 40', () => {
    const valid = { cardNo: 'C1', merchantOrderNo: 'm'.repeat(40), amount: '1.23' };
    expect(issues(DepositCardRequestSchema, valid)).toEqual([]);
    expect(issues(DepositCardRequestSchema, { ...valid, amount: '-1' })).toEqual(['amount: must be greater than 0']);
    expect(issues(DepositCardRequestSchema, { ...valid, merchantOrderNo: 'short' })).toEqual([
      'merchantOrderNo: length must be 20 to 40 characters',
    ]);
  });
});

describe('wallet and account requests', () => {
  it('deposit order chain is TRC20 or BEP20', () => {
    expect(issues(WalletDepositOrderRequestSchema, { chain: 'ERC20', amount: '1' })).toEqual([
      'chain: must be one of TRC20, BEP20',
    ]);
  });

  it('account query sends a 19-digit id as a JSON number', () => {
    expect(stringifyJson(GetAccountRequestSchema.parse({ accountId: BIG_ID }))).toBe(`{"accountId":${BIG_ID}}`);
  });
});

describe('reference requests', () => {
  it('regionCode is alpha-2', () => {
    expect(issues(ListCitiesRequestSchema, { regionCode: 'HKG' })).toEqual([
      'regionCode: must be an ISO 3166-1 alpha-2 code (two capital letters)',
    ]);
    expect(issues(ListCitiesRequestSchema, {})).toEqual([]);
  });
});

describe('work orders', () => {
  const valid = { merchantOrderNo: ORDER_20, title: 'Activate', target: 'C1', tradeType: 'CARD_ACTIVE' };

  it.each([
    ['title', '', 'title: length must be 1 to 255 characters'],
    ['title', 't'.repeat(256), 'title: length must be 1 to 255 characters'],
    ['target', 't'.repeat(256), 'target: length must be 1 to 255 characters'],
    ['content', 'c'.repeat(1001), 'content: length must be 0 to 1000 characters'],
    ['tradeType', 'REFUND', 'tradeType: must be one of CARD_ACTIVE, OTHER'],
    ['merchantOrderNo', 'x', 'merchantOrderNo: length must be 20 to 40 characters'],
  ])('submit refuses %s = %j', (field, value, message) => {
    expect(issues(SubmitWorkOrderRequestSchema, { ...valid, [field]: value })).toEqual([message]);
  });

  it('submit accepts empty content and 1000 characters', () => {
    expect(issues(SubmitWorkOrderRequestSchema, { ...valid, content: '' })).toEqual([]);
    expect(issues(SubmitWorkOrderRequestSchema, { ...valid, content: 'c'.repeat(1000), files: ['f1'] })).toEqual([]);
  });

  it('list carries pageNum and pageNo with the same value, from either', () => {
    expect(ListWorkOrdersRequestSchema.parse({})).toEqual({ pageNum: 1, pageNo: 1, pageSize: 10 });
    expect(ListWorkOrdersRequestSchema.parse({ pageNo: 3 })).toMatchObject({ pageNum: 3, pageNo: 3 });
    expect(ListWorkOrdersRequestSchema.parse({ pageNum: 4, tradeStatus: 'success' })).toMatchObject({
      pageNum: 4,
      pageNo: 4,
    });
    expect(issues(ListWorkOrdersRequestSchema, { pageNum: 1, pageNo: 2 })).toEqual([
      'pageNo: pageNum and pageNo must be equal when both are given',
    ]);
    expect(issues(ListWorkOrdersRequestSchema, { pageSize: 101 })).toEqual(['pageSize: must be 1 to 100']);
  });
});

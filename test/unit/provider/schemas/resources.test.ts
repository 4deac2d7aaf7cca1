/**
 * Every response schema parses a spec-shaped example (numbers as LosslessNumbers, 19-digit
 * ids, amounts as JSON numbers and strings) and refuses a wrongly typed field.
 */
import type { z } from 'zod';
import { parseJson } from '../../../../provider/json';
import { AccountSchema, LedgerEntrySchema } from '../../../../provider/schemas/account';
import {
  ActivateCardResultSchema,
  CardBalanceSchema,
  CardOperationRecordSchema,
  CardOperationResultSchema,
  CardSchema,
  CardSensitiveDataSchema,
  FreezeResultV1Schema,
  OpenCardResultSchema,
  UpdatePinResultSchema,
} from '../../../../provider/schemas/card';
import {
  Card3dsRecordSchema,
  CardAuthFeeRecordSchema,
  CardAuthTransactionSchema,
  CardPurchaseRecordSchema,
} from '../../../../provider/schemas/card-records';
import { CardTypeSchema } from '../../../../provider/schemas/card-type';
import {
  CardholderQueryRecordSchema,
  CardholderSchema,
  OccupationSchema,
} from '../../../../provider/schemas/cardholder';
import { UploadedFileSchema } from '../../../../provider/schemas/file';
import { CityNodeSchema, CitySchema, MobileAreaCodeSchema, RegionSchema } from '../../../../provider/schemas/reference';
import {
  CoinSchema,
  DeprecatedWalletDepositOrderSchema,
  DeprecatedWalletDepositRecordSchema,
  WalletAddressSchema,
  WalletTransactionSchema,
} from '../../../../provider/schemas/wallet';
import { WorkOrderSchema } from '../../../../provider/schemas/work-order';
import { issues, parseWire } from './helpers';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

const BIG_ID = CARD_TYPE_IDS.b2bVirtual;

const cardOperation = `{"orderNo":"CO1852379830190366721","originOrderNo":null,"merchantOrderNo":"m-20241101-000000000001",
  "cardNo":"${BIG_ID}","currency":"USD","amount":100.50,"fee":"1.005","receivedAmount":"99.495","receivedCurrency":"USD",
  "type":"deposit","subType":"DEFAULT","status":"success","description":"ok","remark":"ok","transactionTime":1730419200000}`;

interface Case {
  name: string;
  schema: z.ZodType;
  json: string;
  /** A field and a wrongly typed value for it. */
  bad: [string, unknown];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- cases read own fields
  check?: (out: any) => void;
}

const cases: Case[] = [
  {
    name: 'Account',
    schema: AccountSchema,
    json: `{"accountId":"19847563867367666","accountName":"main","accountType":"WALLET","currency":"USD",
      "totalBalance":1000.25,"availableBalance":"900.25","frozenBalance":100,"digital":2}`,
    bad: ['accountType', 'SAVINGS'],
    check: (a) => {
      expect(a.accountId).toBe('19847563867367666');
      expect(a.totalBalance).toBe('1000.25');
      expect(a.availableBalance).toBe('900.25');
      expect(a.frozenBalance).toBe('100');
      expect(a.digital).toBe(2);
    },
  },
  {
    name: 'LedgerEntry',
    schema: LedgerEntrySchema,
    json: `{"txId":${BIG_ID},"accountId":"1989887271659823105","currency":"USD","amount":-10.5,"beforeBalance":"110.5",
      "afterBalance":100,"orderNo":"T1","bizType":"card_deposit","direction":"OUT","remark":null,"createTime":1730419200000}`,
    bad: ['direction', 'SIDEWAYS'],
    check: (e) => {
      expect(e.txId).toBe(BIG_ID);
      expect(e.accountId).toBe('1989887271659823105');
      expect(e.amount).toBe('-10.5');
    },
  },
  {
    name: 'Coin',
    schema: CoinSchema,
    json: `{"coinKey":"USDT_TRC20","chain":"TRC20","coinFullName":"Tether USD","coinName":"USDT","showCoinDecimal":2,
      "coinDecimal":6,"blockChainShowName":"Tron","browser":"https://tronscan.org/#/address/{address}",
      "txRefUrl":"https://tronscan.org/#/transaction/{txHash}","contractAddress":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      "enableDeposit":true,"enableWithdraw":false,"confirmations":20,"enabled":true}`,
    bad: ['enabled', 7],
  },
  {
    name: 'WalletAddress',
    schema: WalletAddressSchema,
    json: `{"coinKey":"USDT_TRC20","chain":"TRC20","coinName":"USDT","address":"TXYZ1234"}`,
    bad: ['address', 12],
  },
  {
    name: 'WalletTransaction',
    schema: WalletTransactionSchema,
    json: `{"orderNo":"W1","coinKey":"USDT_TRC20","block":61234567,"sourceAddress":"TA","destinationAddress":"TB",
      "txHash":"abc","txAmount":"500","transactionTime":1730419200000,"confirmTime":1730419260000,"coinName":"USDT",
      "feeRate":1,"fee":5,"fixedFee":"1","receivedAmount":494,"receivedCurrency":"USDT","type":"DEPOSIT",
      "status":"success","message":null,"createTime":1730419200000,"updateTime":1730419260000}`,
    bad: ['status', 'done'],
    check: (t) => expect([t.txAmount, t.receivedAmount, t.block]).toEqual(['500', '494', 61234567]),
  },
  {
    name: 'DeprecatedWalletDepositOrder',
    schema: DeprecatedWalletDepositOrderSchema,
    json: `{"orderNo":"D1","userInputDepositAmount":100,"actualDepositAmount":"100.0023","currency":"USDT","chain":"TRC20",
      "toAddress":"TB","createTime":1730419200000,"expireSecond":3600}`,
    bad: ['expireSecond', 'soon'],
    check: (o) => expect(o.actualDepositAmount).toBe('100.0023'),
  },
  {
    name: 'DeprecatedWalletDepositRecord (fee named fee)',
    schema: DeprecatedWalletDepositRecordSchema,
    json: `{"orderNo":"D1","needDepositTxAmount":100,"txAmount":100.0023,"feeRate":1,"fee":"1.000023","fixedFee":0,
      "currency":"USDT","receivedAmount":"99","receivedCurrency":"USDT","chain":"TRC20","fromAddress":"TA","toAddress":"TB",
      "txId":"0xabc","block":1,"confirmTime":1730419200000,"type":"chain_deposit","status":"success","remark":null,
      "createTime":1730419200000,"updateTime":1730419200000}`,
    bad: ['type', 'chain_withdraw'],
    check: (r) => {
      expect(r.feeRateAmount).toBe('1.000023');
      expect('fee' in r).toBe(false);
    },
  },
  {
    name: 'CardType',
    schema: CardTypeSchema,
    json: `{"cardTypeId":${BIG_ID},"organization":"Visa","country":"US","mode":"PREPAID_CARD","bankCardBin":"404038",
      "type":"Virtual","category":"PURCHASE","cardName":"Visa Purchase","cardDesc":"online shopping","cardPrice":"5",
      "cardPriceCurrency":"USD","support":["Amazon"],"risk":["Casino"],"needCardHolder":true,
      "supportHolderRegin":["US","HK"],"supportHolderAreaCode":["+1","+852"],"needDepositForActiveCard":true,
      "depositAmountMinQuotaForActiveCard":10,"depositAmountMaxQuotaForActiveCard":"10000","fiatCurrency":"USD",
      "balanceRetentionQuota":1,"status":"online","rechargeCurrency":"USD","rechargeMinQuota":10,"rechargeMaxQuota":10000,
      "rechargeFeeRate":1.5,"rechargeFixedFee":"0.5","rechargeDigital":2,"enableActiveCard":true,"enableDeposit":true,
      "enableFreeze":true,"enableUnFreeze":true,"metadata":{"cardHolderMaxCardLimit":5,"cardHolderModel":"B2C",
      "supportSettingNoPinPaymentAmount":false,"defaultNoPinPaymentAmount":null,
      "spendingControls":[{"interval":"PER_TRANSACTION","amount":5000,"supportSetting":false}],"supportSettingMcc":false}}`,
    bad: ['mode', 'CREDIT_CARD'],
    check: (t) => {
      expect(t.cardTypeId).toBe(BIG_ID);
      expect(t.rechargeFeeRate).toBe('1.5');
      expect(t.metadata.cardHolderModel).toBe('B2C');
      expect(t.metadata.spendingControls[0].amount).toBe('5000');
    },
  },
  {
    name: 'Card',
    schema: CardSchema,
    json: `{"cardTypeId":${BIG_ID},"cardBankBin":"404038","holderId":1989887271659823105,"cardNo":"C1852379830190366720",
      "status":"blocked","blocked":true,"bindTime":1730419200000,"remark":null,
      "balanceInfo":{"cardNo":"C1852379830190366720","amount":"88.10","usedAmount":null,"currency":"USD"},
      "noPinPaymentAmount":500,"spendingControls":[{"interval":"PER_TRANSACTION","amount":"1000","supportSetting":true}],
      "riskControls":{"allowedMcc":["5411"],"blockedMcc":null},"customCategory":"ads",
      "holderInfo":{"firstName":"Ada","lastName":"Lovelace","country":"US","state":"CA","town":"LA","address":"1 Main St",
      "addressLine2":null,"postCode":"90001"}}`,
    bad: ['status', 'Active'],
    check: (c) => {
      expect(c.holderId).toBe('1989887271659823105');
      expect(c.balanceInfo.amount).toBe('88.10');
      expect(c.noPinPaymentAmount).toBe('500');
    },
  },
  {
    name: 'CardBalance',
    schema: CardBalanceSchema,
    json: `{"cardNo":"C1","amount":12.34,"usedAmount":"1","currency":"USD"}`,
    bad: ['amount', true],
  },
  {
    name: 'CardSensitiveData (gift card)',
    schema: CardSensitiveDataSchema,
    json: `{"activateUrl":"QUJD"}`,
    bad: ['cvv', 123],
  },
  { name: 'CardOperationRecord', schema: CardOperationRecordSchema, json: cardOperation, bad: ['type', 'refund'] },
  {
    name: 'CardOperationResult',
    schema: CardOperationResultSchema,
    json: cardOperation,
    bad: ['cardNo', null],
    check: (r) => expect([r.amount, r.fee]).toEqual(['100.50', '1.005']),
  },
  { name: 'UpdatePinResult', schema: UpdatePinResultSchema, json: cardOperation, bad: ['merchantOrderNo', null] },
  {
    name: 'OpenCardResult (cardNo not yet known)',
    schema: OpenCardResultSchema,
    json: `{"orderNo":"O1","merchantOrderNo":"m-000000000000001","cardNo":null,"currency":"USD","amount":5,"fee":0,
      "type":"create","status":"processing","remark":"processing","transactionTime":1730419200000}`,
    bad: ['remark', null],
  },
  {
    name: 'ActivateCardResult',
    schema: ActivateCardResultSchema,
    json: `{"merchantOrderNo":"m-20241101-000000000001","cardNo":"C1","type":"card_activated","status":"success","remark":null}`,
    bad: ['type', 'activated'],
  },
  {
    name: 'FreezeResultV1',
    schema: FreezeResultV1Schema,
    json: `{"status":"processing","statusStr":"Processing"}`,
    bad: ['status', 'wait_process'],
  },
  {
    name: 'CardPurchaseRecord',
    schema: CardPurchaseRecordSchema,
    json: `{"orderNo":"P1","merchantOrderNo":null,"cardTypeId":"${BIG_ID}","cardType":"Physical","organization":"MasterCard",
      "bankCardBin":"555555","currency":"USD","cardFee":"5","depositAmount":20,"status":"success","transactionTime":1730419200000}`,
    bad: ['organization', 'Amex'],
  },
  {
    name: 'CardAuthTransaction',
    schema: CardAuthTransactionSchema,
    json: `{"cardNo":"C1","tradeNo":"T1","originTradeNo":null,"currency":"EUR","amount":"9.99","authorizedAmount":10.87,
      "authorizedCurrency":"USD","fee":0,"feeCurrency":"USD","crossBoardFee":"0.11","crossBoardFeeCurrency":"USD",
      "settleAmount":null,"settleCurrency":null,"settleDate":null,"authorizationCode":"123456","merchantName":"SHOP",
      "merchantData":{"name":"SHOP","categoryCode":"5411","country":"DEU","city":"Berlin"},"type":"auth",
      "status":"authorized","description":"","transactionTime":1730419200000}`,
    bad: ['status', 'settled'],
    check: (t) => expect(t.authorizedAmount).toBe('10.87'),
  },
  {
    name: 'CardAuthFeeRecord',
    schema: CardAuthFeeRecordSchema,
    json: `{"cardNo":"C1","tradeNo":"F1","originTradeNo":"T1","currency":"USD","amount":0.5,"type":"card_patch_fee",
      "deductionSourceFunds":"wallet","status":"success","statusStr":"Success","transactionTime":1730419200000}`,
    bad: ['type', 'fee'],
  },
  {
    name: 'Card3dsRecord',
    schema: Card3dsRecordSchema,
    json: `{"cardNo":"C1","tradeNo":"S1","originTradeNo":null,"currency":"USD","amount":"20","merchantName":"SHOP",
      "values":"ZW5j","type":"third_3ds_otp","description":null,"transactionTime":1730419200000,"expirationTime":1730419500000}`,
    bad: ['expirationTime', 'later'],
  },
  {
    name: 'Cardholder',
    schema: CardholderSchema,
    json: `{"holderId":${BIG_ID},"merchantOrderNo":"m-20241101-000000000001","cardTypeId":1989887271659823105,
      "statusFlowLocation":"admin","status":"wait_audit","description":null,"respMsg":null}`,
    bad: ['statusFlowLocation', 'bank'],
    check: (h) => expect([h.holderId, h.cardTypeId]).toEqual([BIG_ID, '1989887271659823105']),
  },
  {
    name: 'CardholderQueryRecord',
    schema: CardholderQueryRecordSchema,
    json: `{"holderId":${BIG_ID},"merchantOrderNo":null,"cardTypeId":1,"areaCode":"+1","mobile":"5550100","email":"a@b.co",
      "firstName":"Ada","lastName":"Lovelace","birthday":"1990-01-31","country":"US","town":"US-CA-LA","address":"1 Main St",
      "postCode":"90001","statusFlowLocation":"channel","status":"pass_audit","statusStr":"approved","respMsg":null,
      "createTime":1730419200000,"updateTime":1730419200000,"countryStr":"United States","townStr":"Los Angeles"}`,
    bad: ['status', 'approved'],
  },
  {
    name: 'Occupation',
    schema: OccupationSchema,
    json: `{"occupationCode":"1001","description":"Engineer"}`,
    bad: ['description', 1],
  },
  {
    name: 'Region',
    schema: RegionSchema,
    json: `{"code":"HK","standardCode":"HKG","name":"Hong Kong"}`,
    bad: ['name', null],
  },
  {
    name: 'City',
    schema: CitySchema,
    json: `{"code":"810001","name":"Central","country":"HK","countryStandardCode":"HKG"}`,
    bad: ['country', null],
  },
  {
    name: 'CityNode',
    schema: CityNodeSchema,
    json: `{"code":"CA","name":"California","country":"US","countryStandardCode":"USA","parentCode":0,
      "children":[{"code":"LA","name":"Los Angeles","country":"US","countryStandardCode":"USA","parentCode":"CA","children":[]}]}`,
    bad: ['children', [{ code: 'X' }]],
    check: (n) => {
      expect(n.parentCode).toBe('0');
      expect(n.children[0].name).toBe('Los Angeles');
    },
  },
  {
    name: 'MobileAreaCode',
    schema: MobileAreaCodeSchema,
    json: `{"code":"+852","name":"Hong Kong","areaCode":"HK","language":"en_US","enableGlobalTransfer":false}`,
    bad: ['language', 'fr_FR'],
  },
  { name: 'UploadedFile', schema: UploadedFileSchema, json: `{"fileId":"f-123"}`, bad: ['fileId', null] },
  {
    name: 'WorkOrder',
    schema: WorkOrderSchema,
    json: `{"merchantOrderNo":"m-20241101-000000000001","orderNo":"WO1","title":"Activate","target":"C1","content":null,
      "tradeType":"CARD_ACTIVE","tradeStatus":"wait_process","description":null,"remark":null,
      "createTime":1730419200000,"updateTime":1730419200000}`,
    bad: ['tradeType', 'REFUND'],
  },
];

describe.each(cases)('$name', ({ schema, json, bad, check }) => {
  it('parses a spec-shaped example from lossless JSON', () => {
    const out = parseWire(schema, json);
    check?.(out);
  });

  it(`refuses a wrong ${bad[0]}`, () => {
    const wire = parseJson(json) as Record<string, unknown>;
    expect(issues(schema, { ...wire, [bad[0]]: bad[1] }).some((line) => line.startsWith(bad[0]))).toBe(true);
  });
});

describe('wire numbers', () => {
  it('refuses a JS number for a BigDecimal (only LosslessNumber or string)', () => {
    expect(issues(CardBalanceSchema, { cardNo: 'C1', amount: 1.5, currency: 'USD' })).not.toEqual([]);
  });

  it('strips unknown keys', () => {
    const out = parseWire(RegionSchema, `{"code":"HK","standardCode":"HKG","name":"Hong Kong","extra":1}`);
    expect(out).toEqual({ code: 'HK', standardCode: 'HKG', name: 'Hong Kong' });
  });

  it('requires feeRateAmount or fee on a deprecated deposit record', () => {
    const wire = parseJson(cases.find((c) => c.schema === DeprecatedWalletDepositRecordSchema)!.json) as Record<
      string,
      unknown
    >;
    delete wire.fee;
    expect(issues(DeprecatedWalletDepositRecordSchema, wire)).toContain(
      'feeRateAmount: is required (feeRateAmount or fee)',
    );
  });
});

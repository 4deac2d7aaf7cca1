/**
 * Records in the provider's wire shape: field names as the spec gives them, Long ids as JSON
 * numbers (LosslessNumber, 19 digits survive) except accountId, which the provider sends as a
 * string (provider-notes, Responses), timestamps as numbers. Amounts are JSON numbers in card
 * resources and the ledger, and strings in accounts and wallet records, because the provider's
 * own examples vary (provider-notes) and clients must accept both.
 */
import { jsonNumber, type LosslessNumber } from '../../../provider/json';
import { money } from '../../../provider/money';
import type { CardTypeDef } from '../data/card-types';
import type { CoinDef } from '../data/coins';
import type { Ctx } from './context';
import type {
  Account,
  AuthFee,
  AuthTransaction,
  Card,
  CardOperation,
  DepositOrder,
  Holder,
  LedgerEntry,
  Purchase,
  ThreeDsRecord,
  WalletTransaction,
  WorkOrder,
} from './state';
import { CITY_TREE, cityByCode } from '../data/cities';
import { regionByCode } from '../data/regions';

type Wire = Record<string, unknown>;

/** Decimal text padded to `digits` places when it has fewer ("10" -> "10.00"); never rounds. */
export function fmt(amount: string, digits = 2): string {
  const m = money(amount);
  return m.decimalPlaces() <= digits ? m.toFixed(digits) : m.toFixed();
}

/** Amount as a JSON number with exact digits. */
export function num(amount: string, digits = 2): LosslessNumber {
  return jsonNumber(fmt(amount, digits));
}

const numOrNull = (amount: string | null, digits = 2) => (amount === null ? null : num(amount, digits));
const id = (value: string) => jsonNumber(value);

export function accountWire(a: Account): Wire {
  return {
    accountId: a.accountId,
    accountName: a.accountName,
    accountType: a.accountType,
    currency: a.currency,
    totalBalance: fmt(a.totalBalance, a.digital),
    availableBalance: fmt(a.availableBalance, a.digital),
    frozenBalance: fmt(a.frozenBalance, a.digital),
    digital: a.digital,
  };
}

export function ledgerWire(e: LedgerEntry): Wire {
  return {
    txId: id(e.txId),
    accountId: e.accountId,
    currency: e.currency,
    amount: num(e.amount),
    beforeBalance: num(e.beforeBalance),
    afterBalance: num(e.afterBalance),
    orderNo: e.orderNo,
    bizType: e.bizType,
    direction: e.direction,
    remark: e.remark,
    createTime: e.createTime,
  };
}

export function cardTypeWire(t: CardTypeDef): Wire {
  const { authFee: _authFee, crossBorderFeeRate: _rate, metadata, ...rest } = t;
  const m: Wire = {
    cardHolderMaxCardLimit: metadata.cardHolderMaxCardLimit,
    cardHolderModel: metadata.cardHolderModel,
    supportSettingMcc: metadata.supportSettingMcc,
  };
  if (metadata.supportSettingNoPinPaymentAmount !== undefined) {
    m.supportSettingNoPinPaymentAmount = metadata.supportSettingNoPinPaymentAmount;
  }
  if (metadata.defaultNoPinPaymentAmount) m.defaultNoPinPaymentAmount = num(metadata.defaultNoPinPaymentAmount);
  if (metadata.noPinPaymentAmountMinQuota) m.noPinPaymentAmountMinQuota = num(metadata.noPinPaymentAmountMinQuota);
  if (metadata.noPinPaymentAmountMaxQuota) m.noPinPaymentAmountMaxQuota = num(metadata.noPinPaymentAmountMaxQuota);
  if (metadata.spendingControls) {
    m.spendingControls = metadata.spendingControls.map((s) => ({ ...s, amount: num(s.amount) }));
  }
  return {
    ...rest,
    cardTypeId: id(t.cardTypeId),
    cardPrice: num(t.cardPrice),
    depositAmountMinQuotaForActiveCard: num(t.depositAmountMinQuotaForActiveCard),
    depositAmountMaxQuotaForActiveCard: num(t.depositAmountMaxQuotaForActiveCard),
    balanceRetentionQuota: num(t.balanceRetentionQuota),
    rechargeMinQuota: num(t.rechargeMinQuota),
    rechargeMaxQuota: num(t.rechargeMaxQuota),
    rechargeFeeRate: jsonNumber(t.rechargeFeeRate),
    rechargeFixedFee: num(t.rechargeFixedFee),
    metadata: m,
  };
}

export function balanceWire(c: Card): Wire {
  return { cardNo: c.cardNo, amount: num(c.balance), usedAmount: num(c.usedAmount), currency: c.currency };
}

export function cardWire(ctx: Ctx, c: Card, withBalance: boolean): Wire {
  const type = ctx.state.cardTypes.get(c.cardTypeId);
  const holder = c.holderId ? ctx.state.holders.get(c.holderId) : undefined;
  const wire: Wire = {
    cardTypeId: id(c.cardTypeId),
    cardBankBin: type?.bankCardBin ?? '',
    holderId: c.holderId ? id(c.holderId) : null,
    cardNo: c.cardNo,
    status: c.status,
    blocked: c.blocked,
    bindTime: c.bindTime,
    remark: c.remark,
    noPinPaymentAmount: num(c.noPinPaymentAmount),
    spendingControls: (type?.metadata.spendingControls ?? []).map((s) => ({ ...s, amount: num(s.amount) })),
    riskControls: { allowedMcc: [], blockedMcc: type?.risk.filter((r) => /^\d{4}$/.test(r)) ?? [] },
    customCategory: type?.category ?? null,
  };
  if (holder) {
    const f = holder.fields;
    wire.holderInfo = {
      firstName: f.firstName ?? null,
      lastName: f.lastName ?? null,
      country: f.country ?? null,
      state: CITY_TREE.find((s) => s.children.some((c) => c.code === f.town))?.name ?? null,
      town: f.town ?? null,
      address: f.address ?? null,
      addressLine2: null,
      postCode: f.postCode ?? null,
    };
  }
  if (withBalance) wire.balanceInfo = balanceWire(c);
  return wire;
}

export function operationWire(op: CardOperation): Wire {
  return {
    orderNo: op.orderNo,
    originOrderNo: op.originOrderNo,
    merchantOrderNo: op.merchantOrderNo,
    cardNo: op.deprecated && op.status !== 'success' ? null : op.cardNo,
    currency: op.currency,
    amount: num(op.amount),
    fee: num(op.fee),
    receivedAmount: numOrNull(op.receivedAmount),
    receivedCurrency: op.receivedCurrency,
    type: op.type,
    subType: op.subType,
    status: op.status,
    description: op.description,
    remark: op.description ?? '',
    transactionTime: op.transactionTime,
  };
}

export function purchaseWire(p: Purchase): Wire {
  return {
    ...p,
    cardTypeId: id(p.cardTypeId),
    cardFee: num(p.cardFee),
    depositAmount: num(p.depositAmount),
  };
}

const AUTH_TYPE_STR: Record<AuthTransaction['type'], string> = {
  auth: 'Authorization',
  refund: 'Refund',
  verification: 'Verification',
  Void: 'Reversal',
  maintain_fee: 'Card fee',
};
const AUTH_STATUS_STR: Record<AuthTransaction['status'], string> = {
  authorized: 'Authorized',
  failed: 'Failed',
  succeed: 'Succeeded',
};

export function authWire(a: AuthTransaction): Wire {
  return {
    cardNo: a.cardNo,
    tradeNo: a.tradeNo,
    originTradeNo: a.originTradeNo,
    currency: a.currency,
    amount: num(a.amount),
    authorizedAmount: num(a.authorizedAmount),
    authorizedCurrency: a.authorizedCurrency,
    fee: num(a.fee),
    feeCurrency: a.authorizedCurrency,
    crossBoardFee: num(a.crossBoardFee),
    crossBoardFeeCurrency: a.authorizedCurrency,
    settleAmount: numOrNull(a.settleAmount),
    settleCurrency: a.settleCurrency,
    settleDate: a.settleDate,
    authorizationCode: a.authorizationCode,
    merchantName: a.merchantName,
    merchantData: a.merchantData,
    type: a.type,
    status: a.status,
    description: a.description,
    transactionTime: a.transactionTime,
    typeStr: AUTH_TYPE_STR[a.type],
    statusStr: AUTH_STATUS_STR[a.status],
  };
}

export function authFeeWire(f: AuthFee): Wire {
  const { cardTypeId: _cardTypeId, ...rest } = f;
  return { ...rest, amount: num(f.amount) };
}

export function threeDsWire(ctx: Ctx, r: ThreeDsRecord): Wire {
  return {
    cardNo: r.cardNo,
    tradeNo: r.tradeNo,
    originTradeNo: r.originTradeNo,
    currency: r.currency,
    amount: num(r.amount),
    merchantName: r.merchantName,
    values: ctx.deps.encrypt(r.value),
    type: r.type,
    description: r.description,
    transactionTime: r.transactionTime,
    expirationTime: r.expirationTime,
  };
}

const HOLDER_STATUS_STR: Record<Holder['status'], string> = {
  wait_audit: 'Pending review',
  under_review: 'Under bank review',
  pass_audit: 'Approved',
  reject: 'Rejected',
};

export function holderResultWire(h: Holder): Wire {
  return {
    holderId: id(h.holderId),
    merchantOrderNo: h.merchantOrderNo,
    cardTypeId: id(h.cardTypeId),
    statusFlowLocation: h.statusFlowLocation,
    status: h.status,
    description: h.description,
    respMsg: h.description,
    statusStr: HOLDER_STATUS_STR[h.status],
  };
}

export function holderRecordWire(h: Holder): Wire {
  const f = h.fields;
  const country = f.country ?? f.nationality ?? '';
  const town = f.town ?? '';
  return {
    holderId: id(h.holderId),
    merchantOrderNo: h.merchantOrderNo,
    cardTypeId: id(h.cardTypeId),
    areaCode: f.areaCode ?? '',
    mobile: f.mobile ?? '',
    email: f.email ?? '',
    firstName: f.firstName ?? '',
    lastName: f.lastName ?? '',
    birthday: f.birthday ?? '',
    country,
    town,
    address: f.address ?? '',
    postCode: f.postCode ?? '',
    statusFlowLocation: h.statusFlowLocation,
    status: h.status,
    statusStr: HOLDER_STATUS_STR[h.status],
    respMsg: h.description,
    createTime: h.createTime,
    updateTime: h.updateTime,
    countryStr: regionByCode(country)?.name ?? null,
    townStr: cityByCode(town)?.name ?? null,
  };
}

export function coinWire(c: CoinDef): Wire {
  const { feeRate: _feeRate, fixedFee: _fixedFee, ...rest } = c;
  return rest;
}

export function walletTxWire(t: WalletTransaction): Wire {
  return {
    ...t,
    txAmount: fmt(t.txAmount),
    feeRate: t.feeRate,
    fee: fmt(t.fee),
    fixedFee: fmt(t.fixedFee),
    receivedAmount: fmt(t.receivedAmount),
  };
}

export function depositOrderWire(o: DepositOrder): Wire {
  return {
    orderNo: o.orderNo,
    userInputDepositAmount: fmt(o.userInputDepositAmount),
    actualDepositAmount: o.actualDepositAmount,
    currency: o.currency,
    chain: o.chain,
    toAddress: o.toAddress,
    createTime: o.createTime,
    expireSecond: o.expireSecond,
  };
}

export function depositRecordWire(o: DepositOrder): Wire {
  const r = o.record;
  return {
    orderNo: o.orderNo,
    needDepositTxAmount: o.actualDepositAmount,
    txAmount: r.txAmount,
    feeRate: r.feeRate,
    feeRateAmount: fmt(r.feeRateAmount),
    fixedFee: fmt(r.fixedFee),
    currency: o.currency,
    receivedAmount: r.receivedAmount === null ? null : fmt(r.receivedAmount),
    receivedCurrency: r.receivedAmount === null ? null : o.currency,
    chain: o.chain,
    fromAddress: r.fromAddress,
    toAddress: o.toAddress,
    txId: r.txId,
    block: r.block,
    confirmTime: r.confirmTime,
    type: 'chain_deposit',
    status: r.status,
    remark: r.remark,
    createTime: o.createTime,
    updateTime: r.updateTime,
  };
}

export function workOrderWire(w: WorkOrder): Wire {
  return {
    merchantOrderNo: w.merchantOrderNo,
    orderNo: w.orderNo,
    title: w.title,
    target: w.target,
    content: w.content,
    tradeType: w.tradeType,
    tradeStatus: w.tradeStatus,
    description: w.description,
    remark: w.description,
    createTime: w.createTime,
    updateTime: w.updateTime,
  };
}

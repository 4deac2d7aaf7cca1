/**
 * Card authorizations, their fees and 3DS / activation-code records, driven by the test helpers
 * (the card network's side). An auth is held at once and settled after `cardOperationMs`, its
 * tradeNo pushed again. Fees come from the card; when it is short, the spec's fee-offset rule
 * applies (the platform reserve covers it, then the merchant's account is charged with a fee
 * reversal record). Spending at a merchant on the bin's risk list is declined, and the card
 * frozen and cancelled.
 */
import { add, cmp, money, Money, sub } from '../../../provider/money';
import { getCard } from './cards';
import { cancelCard, overdraftStatement } from './card-operations';
import { getCardType } from './card-types';
import { paramError, stateError, notFound, type Ctx } from './context';
import { collectFee, credit, debit, externalFlow, getAccount } from './ledger';
import type { CardTypeDef } from '../data/card-types';
import type { AuthFee, AuthTransaction, Card, ThreeDsRecord } from './state';
import { authFeeWire, authWire, threeDsWire } from './wire';

export type AuthType = AuthTransaction['type'];

export interface AuthorizationInput {
  cardNo: string;
  type: AuthType;
  amount?: string | undefined;
  currency?: string | undefined;
  merchantName?: string | undefined;
  mcc?: string | undefined;
  merchantCountry?: string | undefined;
  originTradeNo?: string | undefined;
  /** auth only: settle automatically after cardOperationMs (default true). */
  settle?: boolean | undefined;
  /** auth only: settlement amount (default: the authorized amount). */
  settleAmount?: string | undefined;
}

function cancelSettlement(ctx: Ctx, tradeNo: string): void {
  ctx.state.pendingSettlements.get(tradeNo)?.();
  ctx.state.pendingSettlements.delete(tradeNo);
}

function emitAuth(ctx: Ctx, a: AuthTransaction): void {
  ctx.emit('card_auth_transaction', authWire(a));
}

function newAuth(ctx: Ctx, card: Card, input: AuthorizationInput, amount: string): AuthTransaction {
  const type = getCardType(ctx, card.cardTypeId);
  const merchantCountry = input.merchantCountry ?? type.country;
  return {
    cardNo: card.cardNo,
    tradeNo: ctx.ids.orderNo(),
    originTradeNo: input.originTradeNo ?? null,
    currency: input.currency ?? card.currency,
    amount,
    authorizedAmount: amount,
    authorizedCurrency: card.currency,
    fee: '0',
    crossBoardFee: '0',
    settleAmount: null,
    settleCurrency: null,
    settleDate: null,
    authorizationCode: ctx.ids.digits(6),
    merchantName: input.merchantName ?? 'SANDBOX MERCHANT',
    merchantData: {
      name: input.merchantName ?? 'SANDBOX MERCHANT',
      categoryCode: input.mcc ?? '5734',
      category: null,
      country: merchantCountry,
      city: null,
    },
    type: input.type,
    status: 'succeed',
    description: 'Success',
    transactionTime: ctx.now(),
    held: '0',
    crossBorder: merchantCountry !== type.country,
  };
}

function isRisky(ctx: Ctx, card: Card, input: AuthorizationInput): boolean {
  const risk = getCardType(ctx, card.cardTypeId).risk.map((r) => r.toLowerCase());
  return (
    (input.merchantName !== undefined && risk.includes(input.merchantName.toLowerCase())) ||
    (input.mcc !== undefined && risk.includes(input.mcc.toLowerCase()))
  );
}

function requireAmount(input: AuthorizationInput): string {
  if (input.amount === undefined || cmp(input.amount, '0') <= 0)
    throw paramError('amount', `is required and must be greater than 0 for ${input.type}`);
  return input.amount;
}

function findOrigin(ctx: Ctx, card: Card, originTradeNo: string | undefined): AuthTransaction {
  if (originTradeNo === undefined) throw paramError('originTradeNo', 'is required (the tradeNo of the auth)');
  const origin = ctx.state.auths.find((a) => a.tradeNo === originTradeNo && a.type === 'auth');
  if (!origin || origin.cardNo !== card.cardNo)
    throw notFound('originTradeNo', `no auth ${originTradeNo} on card ${card.cardNo}`);
  return origin;
}

/** Keeps `a` in the ledger of authorizations with its description, and sends its webhook. */
function record(ctx: Ctx, a: AuthTransaction, description: string): AuthTransaction {
  a.description = description;
  ctx.state.auths.push(a);
  emitAuth(ctx, a);
  return a;
}

function decline(ctx: Ctx, a: AuthTransaction, description: string): AuthTransaction {
  a.status = 'failed';
  return record(ctx, a, description);
}

/** One fee on one authorization, with the spec's fee-offset rule when the card balance is short. */
function chargeFee(ctx: Ctx, card: Card, auth: AuthTransaction, feeType: AuthFee['type'], amount: string): void {
  const base = {
    cardNo: card.cardNo,
    cardTypeId: card.cardTypeId,
    originTradeNo: auth.tradeNo,
    currency: card.currency,
    amount,
    type: feeType,
    status: 'success',
    transactionTime: ctx.now(),
  };
  const records: AuthFee[] = [];
  collectFee(ctx, amount);
  if (cmp(card.balance, amount) >= 0) {
    card.balance = sub(card.balance, amount);
    records.push({
      ...base,
      tradeNo: ctx.ids.orderNo(),
      deductionSourceFunds: 'card',
      statusStr: 'Deducted from the card balance',
    });
  } else {
    records.push({
      ...base,
      tradeNo: ctx.ids.orderNo(),
      deductionSourceFunds: 'platform_reserve',
      statusStr: 'Card balance insufficient: offset from the platform reserve',
    });
    debit(ctx, getAccount(ctx, card.accountId), {
      amount,
      bizType: feeType === 'card_patch_fee' ? 'card_auth_fee_patch' : 'card_auth_cross_board_patch',
      orderNo: auth.tradeNo,
      remark: `authorization fee of card ${card.cardNo} (card balance insufficient)`,
    });
    records.push({
      ...base,
      tradeNo: ctx.ids.orderNo(),
      deductionSourceFunds: 'wallet',
      statusStr: 'Fee reversal: charged to the merchant reserve account',
    });
  }
  for (const r of records) {
    ctx.state.authFees.push(r);
    ctx.emit('card_fee_patch', authFeeWire(r));
  }
}

/** Settles an authorized auth: amounts and fees filled, the same tradeNo pushed again. */
export function settle(ctx: Ctx, auth: AuthTransaction, settleAmount?: string): AuthTransaction {
  if (auth.status !== 'authorized')
    throw stateError('tradeNo', `auth ${auth.tradeNo} is ${auth.status}; only an authorized auth can be settled`);
  cancelSettlement(ctx, auth.tradeNo);
  const card = getCard(ctx, auth.cardNo);
  const type = getCardType(ctx, card.cardTypeId);
  const final = settleAmount ?? auth.authorizedAmount;
  const diff = sub(final, auth.held);
  card.balance = sub(card.balance, diff);
  card.usedAmount = add(card.usedAmount, diff);
  externalFlow(ctx, sub('0', diff));
  auth.held = '0';
  auth.status = 'succeed';
  auth.settleAmount = final;
  auth.settleCurrency = card.currency;
  auth.settleDate = ctx.now();
  auth.fee = type.authFee;
  auth.crossBoardFee = auth.crossBorder
    ? money(final).times(type.crossBorderFeeRate).dividedBy(100).toDecimalPlaces(2, Money.ROUND_UP).toFixed(2)
    : '0';
  auth.description = 'Settled';
  emitAuth(ctx, auth);
  if (cmp(auth.fee, '0') > 0) chargeFee(ctx, card, auth, 'card_patch_fee', auth.fee);
  if (cmp(auth.crossBoardFee, '0') > 0) chargeFee(ctx, card, auth, 'card_patch_cross_border', auth.crossBoardFee);
  overdraftStatement(ctx, card);
  return auth;
}

export function settleByTradeNo(ctx: Ctx, tradeNo: string, settleAmount?: string): unknown {
  const auth = ctx.state.auths.find((a) => a.tradeNo === tradeNo);
  if (!auth) throw notFound('tradeNo', `no authorization ${tradeNo}`);
  return authWire(settle(ctx, auth, settleAmount));
}

export function authorize(ctx: Ctx, input: AuthorizationInput): unknown {
  const card = getCard(ctx, input.cardNo);
  const type = getCardType(ctx, card.cardTypeId);
  switch (input.type) {
    case 'auth':
      return purchase(ctx, card, type, input);
    case 'Void':
      return voidAuth(ctx, card, input);
    case 'refund':
      return refund(ctx, card, input);
    case 'verification':
      return verify(ctx, card, input);
    case 'maintain_fee':
      return maintenanceFee(ctx, card, input);
  }
}

/**
 * An auth: declined (card not usable, high-risk merchant, over the limit, short of balance) or
 * held, then settled after the card operation delay unless told not to.
 */
function purchase(ctx: Ctx, card: Card, type: CardTypeDef, input: AuthorizationInput): unknown {
  const amount = requireAmount(input);
  const a = newAuth(ctx, card, input, amount);
  if (card.status !== 'Normal' || card.blocked)
    return authWire(decline(ctx, a, `Declined: card is ${card.blocked ? 'blocked' : card.status}`));
  if (isRisky(ctx, card, input)) {
    decline(ctx, a, 'Declined: high-risk merchant; the card is frozen and cancelled by risk control');
    card.status = 'Freeze';
    cancelCard(ctx, card.cardNo, null, 'Risk control: spending at a high-risk merchant of the card type');
    return authWire(a);
  }
  const limit = type.metadata.spendingControls?.find((s) => s.interval === 'PER_TRANSACTION');
  if (limit && cmp(amount, limit.amount) > 0)
    return authWire(decline(ctx, a, `Declined: exceeds the per-transaction limit ${limit.amount}`));
  if (cmp(card.balance, amount) < 0) return authWire(decline(ctx, a, 'Declined: insufficient card balance'));
  card.balance = sub(card.balance, amount);
  externalFlow(ctx, sub('0', amount));
  a.held = amount;
  a.status = 'authorized';
  record(ctx, a, 'Authorized');
  if (input.settle !== false) {
    const cancel = ctx.later(ctx.deps.delays.cardOperationMs, () => {
      ctx.state.pendingSettlements.delete(a.tradeNo);
      if (a.status === 'authorized') settle(ctx, a, input.settleAmount);
    });
    ctx.state.pendingSettlements.set(a.tradeNo, cancel);
  }
  return authWire(a);
}

/** A Void: releases an unsettled auth's hold. */
function voidAuth(ctx: Ctx, card: Card, input: AuthorizationInput): unknown {
  const origin = findOrigin(ctx, card, input.originTradeNo);
  if (origin.status !== 'authorized')
    throw stateError(
      'originTradeNo',
      `auth ${origin.tradeNo} is ${origin.status}; only an unsettled (authorized) auth can be voided — use refund after settlement`,
    );
  cancelSettlement(ctx, origin.tradeNo);
  const released = origin.held;
  const a = newAuth(ctx, card, { ...input, merchantName: origin.merchantName ?? undefined }, released);
  card.balance = add(card.balance, released);
  externalFlow(ctx, released);
  origin.held = '0';
  origin.status = 'failed';
  origin.description = `Reversed by ${a.tradeNo}`;
  emitAuth(ctx, origin);
  return authWire(record(ctx, a, 'Reversal'));
}

/**
 * A refund of a settled auth, up to what is left of it; to the account once the card is cancelled.
 */
function refund(ctx: Ctx, card: Card, input: AuthorizationInput): unknown {
  const amount = requireAmount(input);
  const origin = findOrigin(ctx, card, input.originTradeNo);
  if (origin.status !== 'succeed')
    throw stateError(
      'originTradeNo',
      `auth ${origin.tradeNo} is ${origin.status}; a refund needs a settled auth (use Void before settlement)`,
    );
  const refunded = ctx.state.auths
    .filter((x) => x.type === 'refund' && x.originTradeNo === origin.tradeNo && x.status === 'succeed')
    .reduce((s, x) => add(s, x.amount), '0');
  const left = sub(origin.settleAmount ?? origin.authorizedAmount, refunded);
  if (cmp(amount, left) > 0)
    throw paramError('amount', `exceeds what is left to refund on ${origin.tradeNo} (${left})`);
  const a = newAuth(
    ctx,
    card,
    { ...input, merchantName: input.merchantName ?? origin.merchantName ?? undefined },
    amount,
  );
  externalFlow(ctx, amount);
  if (card.status === 'cancel') {
    // The card is gone: the refund goes to the card's account.
    credit(ctx, getAccount(ctx, card.accountId), {
      amount,
      bizType: 'card_refund',
      orderNo: a.tradeNo,
      remark: `refund to cancelled card ${card.cardNo}`,
    });
  } else {
    card.balance = add(card.balance, amount);
  }
  return authWire(record(ctx, a, 'Refund'));
}

/** A card verification: no amount, declined unless the card is usable. */
function verify(ctx: Ctx, card: Card, input: AuthorizationInput): unknown {
  const a = newAuth(ctx, card, input, '0');
  if (card.status !== 'Normal' || card.blocked) return authWire(decline(ctx, a, `Declined: card is ${card.status}`));
  return authWire(record(ctx, a, 'Card verification'));
}

/** A card maintenance fee, taken from the card balance (an overdraft is stated). */
function maintenanceFee(ctx: Ctx, card: Card, input: AuthorizationInput): unknown {
  const amount = requireAmount(input);
  if (card.status === 'cancel' || card.status === 'fail' || card.status === 'pending') {
    throw stateError('cardNo', `card ${card.cardNo} is ${card.status}; no card fees apply`);
  }
  const a = newAuth(ctx, card, { ...input, merchantName: input.merchantName ?? 'CARD MAINTENANCE FEE' }, amount);
  card.balance = sub(card.balance, amount);
  collectFee(ctx, amount);
  a.fee = amount;
  record(ctx, a, 'Card fee');
  overdraftStatement(ctx, card);
  return authWire(a);
}

function addThreeDs(ctx: Ctx, r: ThreeDsRecord): void {
  ctx.state.threeDs.push(r);
  ctx.emit('card_3ds', threeDsWire(ctx, r));
}

/**
 * issueActivationCode helper: the code a physical card's holder receives; activation must quote it.
 */
export function issueActivationCode(ctx: Ctx, cardNo: string): unknown {
  const card = getCard(ctx, cardNo);
  if (getCardType(ctx, card.cardTypeId).type !== 'Physical')
    throw paramError('cardNo', `card ${cardNo} is virtual; activation codes are for physical cards`);
  if (card.status !== 'un_activated')
    throw stateError('cardNo', `card ${cardNo} is ${card.status}; only an un_activated card gets an activation code`);
  const code = ctx.ids.digits(6);
  card.activationCode = code;
  const now = ctx.now();
  const r: ThreeDsRecord = {
    cardNo,
    tradeNo: ctx.ids.orderNo(),
    originTradeNo: null,
    currency: card.currency,
    amount: '0',
    merchantName: 'Physical card activation',
    value: code,
    type: 'activation_code',
    description: 'Activation code for the physical card',
    transactionTime: now,
    expirationTime: now + 7 * 24 * 3600 * 1000,
  };
  addThreeDs(ctx, r);
  return { cardNo, tradeNo: r.tradeNo, activationCode: code };
}

/** issue3ds helper: a 3DS one-time code or an authorization URL for an online payment. */
export function issueThreeDs(
  ctx: Ctx,
  input: {
    cardNo: string;
    type: 'third_3ds_otp' | 'auth_url';
    amount?: string | undefined;
    merchantName?: string | undefined;
  },
): unknown {
  const card = getCard(ctx, input.cardNo);
  const now = ctx.now();
  const tradeNo = ctx.ids.orderNo();
  const value = input.type === 'third_3ds_otp' ? ctx.ids.digits(6) : `https://3ds.sandbox.invalid/challenge/${tradeNo}`;
  const r: ThreeDsRecord = {
    cardNo: card.cardNo,
    tradeNo,
    originTradeNo: null,
    currency: card.currency,
    amount: input.amount ?? '0',
    merchantName: input.merchantName ?? 'SANDBOX MERCHANT',
    value,
    type: input.type,
    description: input.type === 'third_3ds_otp' ? '3DS verification code' : 'Transaction authorization URL',
    transactionTime: now,
    expirationTime: now + 5 * 60 * 1000,
  };
  addThreeDs(ctx, r);
  return { cardNo: card.cardNo, tradeNo, value };
}

/**
 * Operations on an existing card (spec: /card/deposit, /card/freeze, /card/v2/freeze,
 * /card/unfreeze, /card/v2/unfreeze, /card/physicalCard/updatePin, /card/physicalCard/activeCard)
 * and the provider-initiated ones the spec lists as record types (cancel, withdraw, blocked,
 * overdraft_statement), which the test helpers trigger.
 */
import { add, cmp, depositFee, isWithin, scale, sub } from '../../../provider/money';
import { NO_PIN_PAYMENT_AMOUNT } from '../../../provider/rules';
import { getCard } from './cards';
import { getCardType } from './card-types';
import { paramError, stateError, type Ctx } from './context';
import {
  captureHeld,
  collectFee,
  credit,
  debit,
  getAccount,
  hold,
  release,
  requireAvailable,
  walletAccount,
} from './ledger';
import { operationOutcome } from './magic';
import { emitOperation, newOperation, startOperation } from './opflow';
import { registerOrder, requireNewOrder } from './orders';
import { amount as reqAmount, optAmount, optText, text, type Req } from './request';
import type { Card, CardStatus } from './state';
import { operationWire } from './wire';

function requireStatus(card: Card, allowed: CardStatus[], action: string): void {
  if (!allowed.includes(card.status)) {
    throw stateError('cardNo', `card ${card.cardNo} is ${card.status}; ${action} needs status ${allowed.join(' or ')}`);
  }
}

function requireNotBlocked(card: Card): void {
  if (card.blocked) {
    throw stateError(
      'cardNo',
      `card ${card.cardNo} is blocked by the issuing bank; only a manual application (work order) lifts it`,
    );
  }
}

function newMerchantOrder(ctx: Ctx, req: Req): string {
  const merchantOrderNo = text(req, 'merchantOrderNo');
  requireNewOrder(ctx, merchantOrderNo);
  return merchantOrderNo;
}

/**
 * Deposit: amount within rechargeMin/MaxQuota, fee = amount × rechargeFeeRate% + rechargeFixedFee.
 */
export function depositCard(ctx: Ctx, req: Req): unknown {
  const card = getCard(ctx, text(req, 'cardNo'));
  const merchantOrderNo = newMerchantOrder(ctx, req);
  const amount = reqAmount(req, 'amount');
  const type = getCardType(ctx, card.cardTypeId);
  if (!type.enableDeposit)
    throw stateError('cardNo', `card type ${type.cardTypeId} does not allow deposits (enableDeposit=false)`);
  requireStatus(card, ['Normal', 'un_activated'], 'a deposit');
  requireNotBlocked(card);
  if (!isWithin(amount, type.rechargeMinQuota, type.rechargeMaxQuota)) {
    throw paramError(
      'amount',
      `must be between ${type.rechargeMinQuota} and ${type.rechargeMaxQuota} (rechargeMinQuota/rechargeMaxQuota of card type ${type.cardTypeId})`,
    );
  }
  if (scale(amount) > type.rechargeDigital) {
    throw paramError('amount', `must have at most ${type.rechargeDigital} decimals (rechargeDigital)`);
  }
  const fee = depositFee(amount, type.rechargeFeeRate, type.rechargeFixedFee, type.rechargeDigital);
  const total = add(amount, fee);
  const account = getAccount(ctx, card.accountId);
  requireAvailable(account, total);

  hold(account, total);
  const op = newOperation(ctx, {
    type: 'deposit',
    merchantOrderNo,
    cardNo: card.cardNo,
    currency: card.currency,
    amount,
    fee,
  });
  registerOrder(ctx, merchantOrderNo, 'deposit', op.orderNo);
  startOperation(ctx, op, operationOutcome(merchantOrderNo, amount), {
    onSuccess() {
      captureHeld(ctx, account, {
        amount: total,
        bizType: 'card_deposit',
        orderNo: op.orderNo,
        remark: `deposit ${amount} + fee ${fee}, card ${card.cardNo}`,
      });
      card.balance = add(card.balance, amount);
      collectFee(ctx, fee);
      op.receivedAmount = amount;
      op.receivedCurrency = card.currency;
    },
    onFail() {
      release(account, total);
    },
  });
  return operationWire(op);
}

interface FreezeMove {
  type: 'Freeze' | 'UnFreeze';
  from: CardStatus;
  during: CardStatus;
  to: CardStatus;
}

const FREEZE: FreezeMove = { type: 'Freeze', from: 'Normal', during: 'Freezing', to: 'Freeze' };
const UNFREEZE: FreezeMove = { type: 'UnFreeze', from: 'Freeze', during: 'UnFreezing', to: 'Normal' };

function freezeOrUnfreeze(ctx: Ctx, req: Req, move: FreezeMove, v2: boolean) {
  const card = getCard(ctx, text(req, 'cardNo'));
  const merchantOrderNo = v2 ? newMerchantOrder(ctx, req) : null;
  const type = getCardType(ctx, card.cardTypeId);
  if (move.type === 'Freeze' && !type.enableFreeze)
    throw stateError('cardNo', `card type ${type.cardTypeId} does not allow freezing (enableFreeze=false)`);
  if (move.type === 'UnFreeze' && !type.enableUnFreeze)
    throw stateError('cardNo', `card type ${type.cardTypeId} does not allow unfreezing (enableUnFreeze=false)`);
  if (move.type === 'UnFreeze') requireNotBlocked(card);
  requireStatus(card, [move.from], move.type === 'Freeze' ? 'freezing' : 'unfreezing');

  card.status = move.during;
  const op = newOperation(ctx, {
    type: move.type,
    merchantOrderNo,
    cardNo: card.cardNo,
    currency: card.currency,
    amount: '0',
    fee: '0',
    description: optText(req, 'clientRemark') ?? null,
  });
  if (merchantOrderNo) registerOrder(ctx, merchantOrderNo, move.type, op.orderNo);
  startOperation(ctx, op, operationOutcome(merchantOrderNo), {
    onSuccess() {
      // A cancel or block may have moved the card meanwhile; only finish our own transition.
      if (card.status === move.during) card.status = move.to;
      op.receivedAmount = '0';
      op.receivedCurrency = card.currency;
    },
    onFail() {
      if (card.status === move.during) card.status = move.from;
    },
  });
  return op;
}

export const freezeCard = (ctx: Ctx, req: Req): unknown => operationWire(freezeOrUnfreeze(ctx, req, FREEZE, true));
export const unfreezeCard = (ctx: Ctx, req: Req): unknown => operationWire(freezeOrUnfreeze(ctx, req, UNFREEZE, true));

/**
 * v1 answers only the status of the accepted request; the record is in the card transaction query.
 */
export function freezeCardV1(ctx: Ctx, req: Req): unknown {
  freezeOrUnfreeze(ctx, req, FREEZE, false);
  return { status: 'processing', statusStr: 'Processing' };
}

export function unfreezeCardV1(ctx: Ctx, req: Req): unknown {
  freezeOrUnfreeze(ctx, req, UNFREEZE, false);
  return { status: 'processing', statusStr: 'Processing' };
}

function requirePhysical(ctx: Ctx, card: Card, action: string): void {
  if (getCardType(ctx, card.cardTypeId).type !== 'Physical') {
    throw paramError('cardNo', `card ${card.cardNo} is virtual; ${action} is for physical cards only`);
  }
}

function requirePin(req: Req): void {
  if (!/^\d{6}$/.test(text(req, 'pin'))) throw paramError('pin', 'must be exactly 6 digits');
}

export function updatePin(ctx: Ctx, req: Req): unknown {
  const card = getCard(ctx, text(req, 'cardNo'));
  const merchantOrderNo = newMerchantOrder(ctx, req);
  requirePin(req);
  requirePhysical(ctx, card, 'update PIN');
  requireStatus(card, ['Normal', 'Freeze'], 'a PIN update');
  const op = newOperation(ctx, {
    type: 'update_pin',
    merchantOrderNo,
    cardNo: card.cardNo,
    currency: card.currency,
    amount: '0',
    fee: '0',
  });
  registerOrder(ctx, merchantOrderNo, 'update PIN', op.orderNo);
  startOperation(ctx, op, operationOutcome(merchantOrderNo), {
    onSuccess() {
      card.pinSet = true;
    },
    onFail() {},
  });
  return operationWire(op);
}

/**
 * Physical card activation: 6-digit PIN and the activation code issued for the card (see the
 * issueActivationCode helper). Emits `physical_card` with the activation result when done.
 */
export function activatePhysicalCard(ctx: Ctx, req: Req): unknown {
  const card = getCard(ctx, text(req, 'cardNo'));
  const merchantOrderNo = newMerchantOrder(ctx, req);
  requirePin(req);
  const activeCode = text(req, 'activeCode');
  const noPin = optAmount(req, 'noPinPaymentAmount') ?? NO_PIN_PAYMENT_AMOUNT.default;
  requirePhysical(ctx, card, 'activation');
  const type = getCardType(ctx, card.cardTypeId);
  if (!type.enableActiveCard)
    throw stateError('cardNo', `card type ${type.cardTypeId} does not allow activation (enableActiveCard=false)`);
  requireStatus(card, ['un_activated'], 'activation');
  const min = type.metadata.noPinPaymentAmountMinQuota ?? NO_PIN_PAYMENT_AMOUNT.min;
  const max = type.metadata.noPinPaymentAmountMaxQuota ?? NO_PIN_PAYMENT_AMOUNT.max;
  if (!isWithin(noPin, min, max)) throw paramError('noPinPaymentAmount', `must be between ${min} and ${max}`);
  if (card.activationCode === null) {
    throw stateError(
      'activeCode',
      `no activation code has been issued for card ${card.cardNo} yet (it arrives as an activation_code 3DS record)`,
    );
  }
  if (card.activationCode !== activeCode)
    throw paramError('activeCode', 'does not match the activation code issued for this card');

  registerOrder(ctx, merchantOrderNo, 'activate card', merchantOrderNo);
  const result = {
    merchantOrderNo,
    cardNo: card.cardNo,
    type: 'card_activated',
    status: 'processing',
    remark: 'Processing',
  };
  const fail = operationOutcome(merchantOrderNo) === 'fail';
  ctx.later(ctx.deps.delays.cardOperationMs, () => {
    if (fail || card.status !== 'un_activated') {
      result.status = 'fail';
      result.remark = 'Activation declined by the issuing bank';
    } else {
      card.status = 'Normal';
      card.pinSet = true;
      card.noPinPaymentAmount = noPin;
      card.activationCode = null;
      result.status = 'success';
      result.remark = 'Success';
    }
    ctx.emit('physical_card', { ...result });
  });
  return { ...result };
}

/**
 * Card balance below 0: the shortfall moves from the merchant's account and the card returns to 0
 * (spec, type overdraft_statement).
 */
export function overdraftStatement(ctx: Ctx, card: Card): void {
  if (cmp(card.balance, '0') >= 0) return;
  const shortfall = sub('0', card.balance);
  const op = newOperation(ctx, {
    type: 'overdraft_statement',
    cardNo: card.cardNo,
    currency: card.currency,
    amount: shortfall,
    fee: '0',
    status: 'success',
    description: 'Card balance below 0: shortfall charged to the merchant account',
  });
  debit(ctx, getAccount(ctx, card.accountId), {
    amount: shortfall,
    bizType: 'card_overdraft_statement',
    orderNo: op.orderNo,
    remark: `card ${card.cardNo}`,
  });
  card.balance = '0';
  ctx.state.operations.push(op);
  emitOperation(ctx, op);
}

/**
 * How a cancelled card's balance leaves it (spec: record type cancel; withdraw with subType REFUND;
 * ledger bizTypes card_cancel, card_withdraw, card_refund). The spec ties none of them to the
 * cancel record's orderNo, so each path can be taken:
 * - `cancel`: a `card_cancel` credit to the card's account under the cancel's orderNo;
 * - `cancel_own_order`: the same credit under an orderNo of its own;
 * - `withdraw`: a `withdraw` record with subType REFUND, the balance credited to the merchant's
 *   WALLET as `card_withdraw` under that record's orderNo;
 * - `refund`: a `card_refund` credit to the card's account under an orderNo of its own;
 * - `never`: the balance stays with the cancelled card (a provider that never returns it).
 */
export const CANCEL_RETURN_PATHS = ['cancel', 'cancel_own_order', 'withdraw', 'refund', 'never'] as const;
export type CancelReturnPath = (typeof CANCEL_RETURN_PATHS)[number];

/** Cancels a card (spec, type cancel: cannot be reactivated); its balance leaves by `returnBy`. */
export function cancelCard(
  ctx: Ctx,
  cardNo: string,
  merchantOrderNo: string | null,
  reason?: string,
  returnBy: CancelReturnPath = 'cancel',
): unknown {
  const card = getCard(ctx, cardNo);
  if (merchantOrderNo !== null) requireNewOrder(ctx, merchantOrderNo);
  requireStatus(card, ['Normal', 'Freeze', 'un_activated'], 'cancellation');
  const previous = card.status;
  card.status = 'canceling';
  const op = newOperation(ctx, {
    type: 'cancel',
    merchantOrderNo,
    cardNo,
    currency: card.currency,
    amount: card.balance,
    fee: '0',
    description: reason ?? null,
  });
  if (merchantOrderNo !== null) registerOrder(ctx, merchantOrderNo, 'cancel', op.orderNo);
  startOperation(ctx, op, operationOutcome(merchantOrderNo), {
    onSuccess() {
      overdraftStatement(ctx, card);
      const refund = card.balance;
      card.status = 'cancel';
      op.amount = refund;
      op.receivedAmount = refund;
      op.receivedCurrency = card.currency;
      if (cmp(refund, '0') <= 0 || returnBy === 'never') return;
      card.balance = '0';
      returnCancelledBalance(ctx, card, op.orderNo, refund, returnBy);
    },
    onFail() {
      card.status = previous;
    },
  });
  return operationWire(op);
}

function returnCancelledBalance(
  ctx: Ctx,
  card: Card,
  cancelOrderNo: string,
  amount: string,
  returnBy: Exclude<CancelReturnPath, 'never'>,
): void {
  const remark = `balance of cancelled card ${card.cardNo}`;
  if (returnBy === 'withdraw') {
    const refund = newOperation(ctx, {
      type: 'withdraw',
      subType: 'REFUND',
      cardNo: card.cardNo,
      currency: card.currency,
      amount,
      fee: '0',
      receivedAmount: amount,
      receivedCurrency: card.currency,
      status: 'success',
      description: 'Refund of the balance of a cancelled card',
    });
    credit(ctx, walletAccount(ctx), { amount, bizType: 'card_withdraw', orderNo: refund.orderNo, remark });
    ctx.state.operations.push(refund);
    emitOperation(ctx, refund);
    return;
  }
  const orderNo = returnBy === 'cancel' ? cancelOrderNo : ctx.ids.orderNo();
  const bizType = returnBy === 'refund' ? 'card_refund' : 'card_cancel';
  credit(ctx, getAccount(ctx, card.accountId), { amount, bizType, orderNo, remark });
}

/** Withdraws from a card to its charged account, keeping balanceRetentionQuota on the card. */
export function withdrawCard(ctx: Ctx, cardNo: string, amount: string, merchantOrderNo: string | null): unknown {
  const card = getCard(ctx, cardNo);
  if (merchantOrderNo !== null) requireNewOrder(ctx, merchantOrderNo);
  requireStatus(card, ['Normal', 'Freeze'], 'a withdrawal');
  const type = getCardType(ctx, card.cardTypeId);
  const available = sub(card.balance, type.balanceRetentionQuota);
  if (cmp(amount, '0') <= 0 || cmp(amount, available) > 0) {
    throw paramError(
      'amount',
      `must be more than 0 and at most ${available} (card balance minus balanceRetentionQuota ${type.balanceRetentionQuota})`,
    );
  }
  const op = newOperation(ctx, {
    type: 'withdraw',
    subType: 'DEFAULT',
    merchantOrderNo,
    cardNo,
    currency: card.currency,
    amount,
    fee: '0',
  });
  if (merchantOrderNo !== null) registerOrder(ctx, merchantOrderNo, 'withdraw', op.orderNo);
  let short = false;
  startOperation(ctx, op, operationOutcome(merchantOrderNo, amount), {
    onSuccess() {
      // The balance may have been spent meanwhile: re-check at completion (nothing was held).
      if (cmp(amount, sub(card.balance, type.balanceRetentionQuota)) > 0) {
        short = true;
        return;
      }
      card.balance = sub(card.balance, amount);
      credit(ctx, getAccount(ctx, card.accountId), {
        amount,
        bizType: 'card_withdraw',
        orderNo: op.orderNo,
        remark: `withdraw from card ${cardNo}`,
      });
      op.receivedAmount = amount;
      op.receivedCurrency = card.currency;
    },
    onFail() {},
    after(done) {
      if (short) {
        done.status = 'fail';
        done.description = 'Insufficient card balance at completion';
      }
    },
  });
  return operationWire(op);
}

/**
 * Bank-initiated block: the highest-level freeze, lifted only by a manual application (work order).
 */
export function blockCard(ctx: Ctx, cardNo: string, reason?: string): unknown {
  const card = getCard(ctx, cardNo);
  requireStatus(card, ['Normal', 'Freeze', 'Freezing', 'UnFreezing', 'un_activated'], 'blocking');
  card.blocked = true;
  card.status = 'Freeze';
  const op = newOperation(ctx, {
    type: 'blocked',
    cardNo,
    currency: card.currency,
    amount: '0',
    fee: '0',
    status: 'success',
    description: reason ?? 'Blocked by the issuing bank',
  });
  ctx.state.operations.push(op);
  emitOperation(ctx, op);
  return operationWire(op);
}

/** Lifts a block (a manual application succeeded): the card returns to Normal. */
export function unblockCard(ctx: Ctx, card: Card): void {
  if (!card.blocked) return;
  card.blocked = false;
  if (card.status === 'Freeze') card.status = 'Normal';
}

/**
 * Card creation and card reads (spec: /card/v2/createCard, /card/openCard, /card/info,
 * /card/sensitive, /card/balanceInfo; provider-notes, "Flows documented by the provider").
 *
 * Creation charges card fee + initial deposit + deposit fee to the charged account (accountId,
 * or the default wallet when omitted). The money is held at acceptance and taken when the
 * create record succeeds; on failure the hold is released and the card ends in status fail.
 */
import { add, cmp, depositFee, isWithin, scale } from '../../../provider/money';
import type { CardTypeDef } from '../data/card-types';
import { isLuhnValid } from '../random';
import { getCardType } from './card-types';
import { notFound, paramError, stateError, type Ctx } from './context';
import { captureHeld, collectFee, getAccount, hold, release, requireAvailable, walletAccount } from './ledger';
import { operationOutcome } from './magic';
import { newOperation, startOperation } from './opflow';
import { requireNewOrder, registerOrder } from './orders';
import { amount as reqAmount, optAmount, optBool, optLong, optText, text, type Req } from './request';
import type { Account, Card, Holder, Purchase } from './state';
import { balanceWire, cardWire, operationWire } from './wire';

export function getCard(ctx: Ctx, cardNo: string, field = 'cardNo'): Card {
  const card = ctx.state.cards.get(cardNo);
  if (!card) throw notFound(field, `card ${cardNo} does not exist`);
  return card;
}

/**
 * Cards that count against metadata.cardHolderMaxCardLimit: failed creations do not, nor cancelled
 * cards (the holder no longer has them), so a lost card's holder can be given its replacement.
 */
export function holderCardCount(ctx: Ctx, holderId: string): number {
  return [...ctx.state.cards.values()].filter(
    (c) => c.holderId === holderId && c.status !== 'fail' && c.status !== 'cancel',
  ).length;
}

function checkHolder(ctx: Ctx, type: CardTypeDef, holderId: string | undefined): Holder | null {
  if (!type.needCardHolder) {
    if (holderId !== undefined) {
      throw paramError(
        'holderId',
        `card type ${type.cardTypeId} does not use cardholders (needCardHolder=false); omit holderId`,
      );
    }
    return null;
  }
  if (holderId === undefined) {
    throw paramError('holderId', `is required: card type ${type.cardTypeId} needs a cardholder (needCardHolder=true)`);
  }
  const holder = ctx.state.holders.get(holderId);
  if (!holder) throw notFound('holderId', `cardholder ${holderId} does not exist`);
  if (holder.cardTypeId !== type.cardTypeId) {
    throw paramError(
      'holderId',
      `cardholder ${holderId} belongs to card type ${holder.cardTypeId}, not ${type.cardTypeId}`,
    );
  }
  if (holder.status !== 'pass_audit') {
    throw stateError(
      'holderId',
      `cardholder ${holderId} is ${holder.status} at ${holder.statusFlowLocation}; cards can be created only after pass_audit`,
    );
  }
  const limit = type.metadata.cardHolderMaxCardLimit;
  if (holderCardCount(ctx, holderId) >= limit) {
    throw stateError(
      'holderId',
      `cardholder ${holderId} already has ${limit} card(s), the maximum of card type ${type.cardTypeId} (metadata.cardHolderMaxCardLimit)`,
    );
  }
  return holder;
}

function checkInitialDeposit(type: CardTypeDef, amount: string): void {
  if (!type.needDepositForActiveCard) {
    if (cmp(amount, '0') !== 0) {
      throw paramError(
        'amount',
        `card type ${type.cardTypeId} does not support an initial deposit (needDepositForActiveCard=false); pass 0`,
      );
    }
    return;
  }
  const min = type.depositAmountMinQuotaForActiveCard;
  const max = type.depositAmountMaxQuotaForActiveCard;
  if (!isWithin(amount, min, max)) {
    throw paramError(
      'amount',
      `initial deposit must be between ${min} and ${max} for card type ${type.cardTypeId} (depositAmountMin/MaxQuotaForActiveCard)`,
    );
  }
  if (scale(amount) > type.rechargeDigital) {
    throw paramError('amount', `must have at most ${type.rechargeDigital} decimals (rechargeDigital)`);
  }
}

function checkCardNumber(ctx: Ctx, type: CardTypeDef, cardNumber: string | undefined): string | null {
  if (type.type === 'Virtual') {
    if (cardNumber !== undefined)
      throw paramError('cardNumber', 'is only for physical cards; omit it for a virtual card');
    return null;
  }
  if (cardNumber === undefined)
    throw paramError('cardNumber', `is required for a physical card (card type ${type.cardTypeId})`);
  if (!isLuhnValid(cardNumber) || !cardNumber.startsWith(type.bankCardBin)) {
    throw paramError(
      'cardNumber',
      `must be the number printed on a card of bin ${type.bankCardBin} (digits, valid check digit)`,
    );
  }
  if (ctx.state.usedPans.has(cardNumber))
    throw paramError('cardNumber', 'this physical card is already bound to a card');
  return cardNumber;
}

/** Default account: the merchant wallet (in shared card mode the spec says so explicitly). */
function chargedAccount(ctx: Ctx, type: CardTypeDef, accountId: string | undefined): Account {
  const account = accountId === undefined ? walletAccount(ctx) : getAccount(ctx, accountId);
  if (account.currency !== type.cardPriceCurrency) {
    throw paramError(
      'accountId',
      `account ${account.accountId} holds ${account.currency}; card type ${type.cardTypeId} is paid in ${type.cardPriceCurrency}`,
    );
  }
  return account;
}

function expiry(now: number): string {
  const d = new Date(now);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String((d.getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
}

/**
 * createCard (v2) and openCard (deprecated) share every rule; they differ in the record they
 * return.
 */
function create(ctx: Ctx, req: Req, deprecated: boolean) {
  const merchantOrderNo = text(req, 'merchantOrderNo');
  requireNewOrder(ctx, merchantOrderNo);
  const type = getCardType(ctx, text(req, 'cardTypeId'));
  if (type.status !== 'online')
    throw stateError('cardTypeId', `card type ${type.cardTypeId} is offline; no new cards can be created`);
  const holder = checkHolder(ctx, type, optLong(req, 'holderId'));
  const given = deprecated ? optAmount(req, 'amount') : reqAmount(req, 'amount');
  // openCard: amount defaults to depositAmountMinQuotaForActiveCard when the bin needs a deposit.
  const amount = given ?? (type.needDepositForActiveCard ? type.depositAmountMinQuotaForActiveCard : '0');
  checkInitialDeposit(type, amount);
  const pan = checkCardNumber(ctx, type, optText(req, 'cardNumber'));
  const account = chargedAccount(ctx, type, optLong(req, 'accountId'));
  const fee =
    cmp(amount, '0') > 0 ? depositFee(amount, type.rechargeFeeRate, type.rechargeFixedFee, type.rechargeDigital) : '0';
  const total = add(type.cardPrice, amount, fee);
  requireAvailable(account, total);

  // Validation passed: from here on the request changes state.
  const now = ctx.now();
  const card: Card = {
    cardNo: ctx.ids.longId(),
    cardTypeId: type.cardTypeId,
    holderId: holder?.holderId ?? null,
    status: 'pending',
    blocked: false,
    bindTime: now,
    remark: null,
    balance: '0',
    usedAmount: '0',
    currency: type.fiatCurrency,
    accountId: account.accountId,
    pan: pan ?? ctx.ids.pan(type.bankCardBin),
    cvv: ctx.ids.digits(3),
    expireDate: expiry(now),
    noPinPaymentAmount: type.type === 'Physical' ? (type.metadata.defaultNoPinPaymentAmount ?? '500') : '0',
    pinSet: false,
    activationCode: null,
    deprecatedCreate: deprecated,
  };
  ctx.state.cards.set(card.cardNo, card);
  ctx.state.usedPans.add(card.pan);
  hold(account, total);
  const op = newOperation(ctx, {
    type: 'create',
    merchantOrderNo,
    cardNo: card.cardNo,
    currency: type.fiatCurrency,
    // v2: amount is the initial deposit; deprecated openCard: amount is the card fee
    // (provider-notes).
    amount: deprecated ? type.cardPrice : amount,
    fee,
    deprecated,
  });
  const purchase: Purchase = {
    orderNo: op.orderNo,
    merchantOrderNo,
    cardTypeId: type.cardTypeId,
    cardType: type.type,
    organization: type.organization,
    bankCardBin: type.bankCardBin,
    currency: type.cardPriceCurrency,
    cardFee: type.cardPrice,
    depositAmount: amount,
    status: 'wait_process',
    transactionTime: now,
  };
  ctx.state.purchases.push(purchase);
  registerOrder(ctx, merchantOrderNo, 'create card', op.orderNo);
  startOperation(ctx, op, operationOutcome(merchantOrderNo, amount), {
    onSuccess() {
      captureHeld(ctx, account, {
        amount: type.cardPrice,
        bizType: 'card_purchase',
        orderNo: op.orderNo,
        remark: `card fee, card ${card.cardNo}`,
      });
      if (cmp(amount, '0') > 0) {
        captureHeld(ctx, account, {
          amount: add(amount, fee),
          bizType: 'card_deposit',
          orderNo: op.orderNo,
          remark: `initial deposit ${amount} + fee ${fee}, card ${card.cardNo}`,
        });
      }
      card.balance = add(card.balance, amount);
      collectFee(ctx, add(type.cardPrice, fee));
      card.status = type.type === 'Physical' ? 'un_activated' : 'Normal';
    },
    onFail() {
      release(account, total);
      card.status = 'fail';
      ctx.state.usedPans.delete(card.pan);
    },
    after(done) {
      purchase.status = done.status;
      purchase.transactionTime = done.transactionTime;
    },
  });
  return op;
}

export function createCard(ctx: Ctx, req: Req): unknown {
  return operationWire(create(ctx, req, false));
}

export function openCard(ctx: Ctx, req: Req): unknown {
  return [operationWire(create(ctx, req, true))];
}

export function getCardInfo(ctx: Ctx, req: Req): unknown {
  const card = getCard(ctx, text(req, 'cardNo'));
  const onlySimple = optBool(req, 'onlySimpleInfo') ?? true;
  return cardWire(ctx, card, !onlySimple);
}

export function getCardBalance(ctx: Ctx, req: Req): unknown {
  return balanceWire(getCard(ctx, text(req, 'cardNo')));
}

/**
 * Encrypted with the merchant public key; gift cards carry only activateUrl (spec, "Card sensitive
 * data").
 */
export function getCardSensitiveData(ctx: Ctx, req: Req): unknown {
  const card = getCard(ctx, text(req, 'cardNo'));
  if (card.status === 'pending' || card.status === 'fail') {
    throw stateError('cardNo', `card ${card.cardNo} is ${card.status}; sensitive data exists once the card is created`);
  }
  const type = getCardType(ctx, card.cardTypeId);
  if (type.category === 'GIFT') {
    return { activateUrl: ctx.deps.encrypt(`https://gift.sandbox.invalid/redeem/${card.cardNo}`) };
  }
  return {
    cardNumber: ctx.deps.encrypt(card.pan),
    cvv: ctx.deps.encrypt(card.cvv),
    expireDate: ctx.deps.encrypt(card.expireDate),
  };
}

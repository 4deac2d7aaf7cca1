/**
 * Crypto wallet (spec, "Wallet"): coins, deposit addresses, v2 wallet transactions and the
 * deprecated deposit order and record. On-chain deposits arrive through the creditWalletDeposit
 * helper: wait_process -> processing (in a block) -> success after `confirmations` blocks of
 * `delays.blockConfirmationMs`; receivedAmount = txAmount - fee - fixedFee is credited to the
 * WALLET account (ledger chain_deposit). Withdrawals (withdrawWallet helper) run the same steps
 * the other way (ledger chain_withdraw). Each change emits `wallet_transaction_v2`.
 */
import { add, cmp, money, Money, sub } from '../../../provider/money';
import type { CoinDef } from '../data/coins';
import { notFound, paramError, stateError, type Ctx } from './context';
import {
  captureHeld,
  collectFee,
  credit,
  externalFlow,
  hold,
  release,
  requireAvailable,
  walletAccount,
} from './ledger';
import { byField, inTimeRange, newestFirst, page } from './paging';
import { amount as reqAmount, optText, text, type Req } from './request';
import type { DepositOrder, WalletAddress, WalletTransaction } from './state';
import { coinWire, depositOrderWire, depositRecordWire, walletTxWire } from './wire';
import { WALLET_TX_RANGE_DAYS } from '../../../provider/rules';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
/** Deprecated deposit orders are valid this long (spec: expireSecond). */
export const DEPOSIT_ORDER_EXPIRE_SECONDS = 1800;

export function listCoins(ctx: Ctx): unknown {
  return ctx.state.coins.map(coinWire);
}

function getCoin(ctx: Ctx, coinKey: string, field = 'coinKey'): CoinDef {
  const coin = ctx.state.coins.find((c) => c.coinKey === coinKey);
  if (!coin) throw notFound(field, `coin ${coinKey} does not exist (see /wallet/v2/coins)`);
  return coin;
}

function addressFor(ctx: Ctx, coin: CoinDef): WalletAddress {
  const existing = ctx.state.addresses.find((a) => a.coinKey === coin.coinKey);
  if (existing) return existing;
  const address = coin.chain === 'TRC20' ? `T${ctx.ids.chars(33, BASE58)}` : `0x${ctx.ids.chars(40, HEX)}`;
  const created = { coinKey: coin.coinKey, chain: coin.chain, coinName: coin.coinName, address };
  ctx.state.addresses.push(created);
  return created;
}

/** Only for a coin with enabled=true; one address per coin (a repeat returns the same address). */
export function createWalletAddress(ctx: Ctx, req: Req): unknown {
  const coin = getCoin(ctx, text(req, 'coinKey'));
  if (!coin.enabled)
    throw stateError('coinKey', `coin ${coin.coinKey} is not enabled; addresses can be created only for enabled coins`);
  return { ...addressFor(ctx, coin) };
}

export function listWalletAddresses(ctx: Ctx): unknown {
  return ctx.state.addresses.map((a) => ({ ...a }));
}

export function listWalletTransactions(ctx: Ctx, req: Req): unknown {
  let records = newestFirst(ctx.state.walletTransactions, (t) => t.createTime);
  for (const field of [
    'coinKey',
    'coinName',
    'txHash',
    'sourceAddress',
    'destinationAddress',
    'orderNo',
    'type',
    'status',
  ]) {
    records = byField(records, req, field);
  }
  records = inTimeRange(ctx, records, req, (t) => t.createTime, WALLET_TX_RANGE_DAYS);
  return page(records, req, walletTxWire);
}

/**
 * Deprecated deposit order: actualDepositAmount = amount + a few ten-thousandths that identify the
 * order on chain.
 */
export function walletDepositOrder(ctx: Ctx, req: Req): unknown {
  const chain = optText(req, 'chain') ?? 'TRC20';
  const amount = reqAmount(req, 'amount');
  if (cmp(amount, '0') <= 0) throw paramError('amount', 'must be greater than 0');
  const coin = ctx.state.coins.find((c) => c.chain === chain && c.enabled);
  if (!coin) throw paramError('chain', 'must be TRC20 or BEP20');
  const to = addressFor(ctx, coin);
  let actual: string;
  do {
    actual = money(amount)
      .plus(money(String(ctx.ids.int(1, 99))).dividedBy(10000))
      .toFixed(4);
  } while (
    ctx.state.depositOrders.some((o) => cmp(o.actualDepositAmount, actual) === 0 && o.record.status === 'wait_process')
  );
  const now = ctx.now();
  const order: DepositOrder = {
    orderNo: ctx.ids.orderNo(),
    userInputDepositAmount: amount,
    actualDepositAmount: actual,
    currency: coin.coinName,
    chain,
    toAddress: to.address,
    createTime: now,
    expireSecond: DEPOSIT_ORDER_EXPIRE_SECONDS,
    record: {
      txAmount: null,
      feeRate: coin.feeRate,
      feeRateAmount: '0',
      fixedFee: coin.fixedFee,
      receivedAmount: null,
      fromAddress: null,
      txId: null,
      block: null,
      confirmTime: null,
      status: 'wait_process',
      remark: null,
      updateTime: now,
    },
  };
  ctx.state.depositOrders.push(order);
  ctx.later(DEPOSIT_ORDER_EXPIRE_SECONDS * 1000, () => {
    if (order.record.status !== 'wait_process') return;
    order.record.status = 'fail';
    order.record.remark = 'Expired: no matching deposit arrived';
    order.record.updateTime = ctx.now();
  });
  return depositOrderWire(order);
}

export function walletDepositTransactions(ctx: Ctx, req: Req): unknown {
  let orders = newestFirst(ctx.state.depositOrders, (o) => o.createTime);
  orders = byField(orders, req, 'orderNo');
  orders = byField(orders, req, 'fromAddress', (o) => o.record.fromAddress);
  orders = byField(orders, req, 'toAddress');
  orders = byField(orders, req, 'txId', (o) => o.record.txId);
  orders = byField(orders, req, 'status', (o) => o.record.status);
  orders = inTimeRange(ctx, orders, req, (o) => o.createTime);
  return page(orders, req, depositRecordWire);
}

export interface ChainDeposit {
  address?: string | undefined;
  coinKey?: string | undefined;
  amount: string;
  sourceAddress?: string | undefined;
  txHash?: string | undefined;
  outcome?: 'success' | 'fail' | undefined;
}

/**
 * The platform's fee of an on-chain amount: feeRate percent (1 = 1%), rounded up to the cent; the
 * fixed fee is apart.
 */
function chainFee(coin: CoinDef, amount: string): string {
  return money(amount).times(coin.feeRate).dividedBy(100).toDecimalPlaces(2, Money.ROUND_UP).toFixed();
}

type ChainFields = Pick<
  WalletTransaction,
  | 'orderNo'
  | 'type'
  | 'sourceAddress'
  | 'destinationAddress'
  | 'txHash'
  | 'txAmount'
  | 'fee'
  | 'receivedAmount'
  | 'receivedCurrency'
>;

/**
 * A wallet v2 transaction on its way through the chain: wait_process, then processing in the next
 * block, then final after the coin's confirmations, when `settle` decides success or fail and books
 * it. Every change is emitted as a wallet_transaction_v2 event (and told to `onChange`).
 */
function runChainTransaction(
  ctx: Ctx,
  coin: CoinDef,
  fields: ChainFields,
  settle: (tx: WalletTransaction) => void,
  onChange?: (tx: WalletTransaction) => void,
): WalletTransaction {
  const now = ctx.now();
  const tx: WalletTransaction = {
    ...fields,
    coinKey: coin.coinKey,
    block: null,
    transactionTime: null,
    confirmTime: null,
    coinName: coin.coinName,
    feeRate: coin.feeRate,
    fixedFee: coin.fixedFee,
    status: 'wait_process',
    message: null,
    createTime: now,
    updateTime: now,
  };
  ctx.state.walletTransactions.push(tx);
  const emit = () => {
    tx.updateTime = ctx.now();
    ctx.emit('wallet_transaction_v2', walletTxWire(tx));
    onChange?.(tx);
  };
  emit();
  const step = ctx.deps.delays.blockConfirmationMs;
  ctx.later(step, () => {
    tx.status = 'processing';
    tx.txHash ??= ctx.ids.chars(64, HEX);
    tx.block = 60_000_000 + ctx.ids.int(0, 9_999_999);
    tx.transactionTime = ctx.now();
    emit();
    ctx.later(step * coin.confirmations, () => {
      tx.confirmTime = ctx.now();
      settle(tx);
      emit();
    });
  });
  return tx;
}

/** creditWalletDeposit helper: an on-chain deposit arrives at one of the merchant's addresses. */
export function creditWalletDeposit(ctx: Ctx, d: ChainDeposit): unknown {
  let target: WalletAddress | undefined;
  if (d.address !== undefined) {
    target = ctx.state.addresses.find((a) => a.address === d.address);
    if (!target) throw notFound('address', `${d.address} is not one of the merchant's wallet addresses`);
  } else {
    target = addressFor(ctx, getCoin(ctx, d.coinKey ?? 'USDT_TRC20'));
  }
  const coin = getCoin(ctx, target.coinKey);
  if (!coin.enableDeposit) throw stateError('coinKey', `deposits of ${coin.coinKey} are disabled`);
  if (cmp(d.amount, '0') <= 0) throw paramError('amount', 'must be greater than 0');
  const fee = chainFee(coin, d.amount);
  const received = sub(sub(d.amount, fee), coin.fixedFee);
  const tooSmall = cmp(received, '0') <= 0;
  const order = ctx.state.depositOrders.find(
    (o) =>
      o.toAddress === target.address &&
      cmp(o.actualDepositAmount, d.amount) === 0 &&
      o.record.status === 'wait_process',
  );
  const tx = runChainTransaction(
    ctx,
    coin,
    {
      orderNo: ctx.ids.orderNo(),
      type: 'DEPOSIT',
      sourceAddress:
        d.sourceAddress ?? (coin.chain === 'TRC20' ? `T${ctx.ids.chars(33, BASE58)}` : `0x${ctx.ids.chars(40, HEX)}`),
      destinationAddress: target.address,
      txHash: d.txHash ?? ctx.ids.chars(64, HEX),
      txAmount: d.amount,
      fee,
      receivedAmount: tooSmall ? '0' : received,
      receivedCurrency: walletAccount(ctx).currency,
    },
    (tx) => {
      if (d.outcome === 'fail' || tooSmall) {
        tx.status = 'fail';
        tx.message = tooSmall ? 'Amount does not cover the deposit fees' : 'Deposit rejected by risk control';
        return;
      }
      tx.status = 'success';
      tx.message = 'Success';
      credit(ctx, walletAccount(ctx), {
        amount: received,
        bizType: 'chain_deposit',
        orderNo: tx.orderNo,
        remark: `${coin.coinKey} ${tx.txHash}`,
      });
      collectFee(ctx, add(fee, coin.fixedFee));
      externalFlow(ctx, d.amount);
    },
    // The deprecated deposit order this deposit pays follows its transaction.
    (tx) => {
      if (!order) return;
      const r = order.record;
      r.status = tx.status;
      r.txAmount = tx.txAmount;
      r.fromAddress = tx.sourceAddress;
      r.txId = tx.txHash;
      r.block = tx.block;
      r.confirmTime = tx.confirmTime;
      r.feeRateAmount = fee;
      r.receivedAmount = tx.status === 'success' ? received : null;
      r.remark = tx.message;
      r.updateTime = tx.updateTime;
    },
  );
  return walletTxWire(tx);
}

export interface ChainWithdrawal {
  amount: string;
  toAddress: string;
  coinKey?: string | undefined;
  outcome?: 'success' | 'fail' | undefined;
}

/**
 * withdrawWallet helper: a WITHDRAW from the merchant wallet to an outside address (the spec has
 * the record type but no operation; a merchant starts it in the dashboard). `amount` leaves the
 * WALLET account (ledger chain_withdraw, held until confirmed); receivedAmount = amount - fees.
 */
export function withdrawWallet(ctx: Ctx, w: ChainWithdrawal): unknown {
  const coin = getCoin(ctx, w.coinKey ?? 'USDT_TRC20');
  if (!coin.enabled || !coin.enableWithdraw) throw stateError('coinKey', `withdrawals of ${coin.coinKey} are disabled`);
  if (cmp(w.amount, '0') <= 0) throw paramError('amount', 'must be greater than 0');
  const fee = chainFee(coin, w.amount);
  const received = sub(sub(w.amount, fee), coin.fixedFee);
  if (cmp(received, '0') <= 0)
    throw paramError('amount', `must exceed the withdrawal fees (${fee} + ${coin.fixedFee})`);
  const account = walletAccount(ctx);
  requireAvailable(account, w.amount);

  hold(account, w.amount);
  const tx = runChainTransaction(
    ctx,
    coin,
    {
      orderNo: ctx.ids.orderNo(),
      type: 'WITHDRAW',
      sourceAddress: addressFor(ctx, coin).address,
      destinationAddress: w.toAddress,
      txHash: null,
      txAmount: received,
      fee,
      receivedAmount: received,
      receivedCurrency: coin.coinName,
    },
    (tx) => {
      if (w.outcome === 'fail') {
        release(account, w.amount);
        tx.status = 'fail';
        tx.message = 'Withdrawal rejected by risk control';
        return;
      }
      captureHeld(ctx, account, {
        amount: w.amount,
        bizType: 'chain_withdraw',
        orderNo: tx.orderNo,
        remark: `${coin.coinKey} to ${w.toAddress}`,
      });
      collectFee(ctx, add(fee, coin.fixedFee));
      externalFlow(ctx, sub('0', received));
      tx.status = 'success';
      tx.message = 'Success';
    },
  );
  return walletTxWire(tx);
}

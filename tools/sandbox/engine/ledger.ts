/**
 * Account balances and the ledger (spec, "Account", "Ledger entry"). Every money movement goes
 * through here and writes a ledger entry with before/after balances, bizType and direction.
 *
 * Money accepted for an asynchronous card operation is first held (available -> frozen) and only
 * leaves the account when the operation succeeds, so the money invariant holds at every moment:
 * sum(account totals) + sum(card balances) + fees collected - external credits is constant.
 */
import { add, cmp, sub } from '../../../provider/money';
import { balanceError, notFound, type Ctx } from './context';
import type { Account } from './state';

export type BizType =
  | 'chain_deposit'
  | 'chain_withdraw'
  | 'card_purchase'
  | 'card_deposit'
  | 'card_withdraw'
  | 'card_cancel'
  | 'card_auth_fee_patch'
  | 'card_auth_cross_board_patch'
  | 'fixed'
  | 'card_overdraft_statement'
  | 'card_settlement'
  | 'card_refund'
  | 'fund_transfer'
  | 'fund_collection'
  | 'card_decline_fee';

export function getAccount(ctx: Ctx, accountId: string, field = 'accountId'): Account {
  const account = ctx.state.accounts.get(accountId);
  if (!account) throw notFound(field, `account ${accountId} does not exist`);
  return account;
}

export function walletAccount(ctx: Ctx): Account {
  return getAccount(ctx, ctx.state.walletAccountId);
}

/** Refuses (before any change) when the account's available balance is below `amount`. */
export function requireAvailable(account: Account, amount: string, field = 'amount'): void {
  if (cmp(account.availableBalance, amount) < 0) {
    throw balanceError(
      field,
      `insufficient available balance in account ${account.accountId}: needs ${amount} ${account.currency}, has ${account.availableBalance}`,
    );
  }
}

/** Moves `amount` from available to frozen (an operation accepted, not yet done). */
export function hold(account: Account, amount: string): void {
  account.availableBalance = sub(account.availableBalance, amount);
  account.frozenBalance = add(account.frozenBalance, amount);
}

/** Undoes a hold (the operation failed). */
export function release(account: Account, amount: string): void {
  account.frozenBalance = sub(account.frozenBalance, amount);
  account.availableBalance = add(account.availableBalance, amount);
}

interface Movement {
  amount: string;
  bizType: BizType;
  orderNo: string;
  remark?: string | null;
}

function write(ctx: Ctx, account: Account, m: Movement, direction: 'IN' | 'OUT', before: string): void {
  ctx.state.ledger.push({
    txId: ctx.ids.longId(),
    accountId: account.accountId,
    currency: account.currency,
    amount: m.amount,
    beforeBalance: before,
    afterBalance: account.totalBalance,
    orderNo: m.orderNo,
    bizType: m.bizType,
    direction,
    remark: m.remark ?? null,
    createTime: ctx.now(),
  });
}

/** Takes held money out of the account (the operation succeeded). */
export function captureHeld(ctx: Ctx, account: Account, m: Movement): void {
  const before = account.totalBalance;
  account.frozenBalance = sub(account.frozenBalance, m.amount);
  account.totalBalance = sub(account.totalBalance, m.amount);
  write(ctx, account, m, 'OUT', before);
}

/** Takes available money out; may leave the account negative (overdraft statements). */
export function debit(ctx: Ctx, account: Account, m: Movement): void {
  const before = account.totalBalance;
  account.availableBalance = sub(account.availableBalance, m.amount);
  account.totalBalance = sub(account.totalBalance, m.amount);
  write(ctx, account, m, 'OUT', before);
}

export function credit(ctx: Ctx, account: Account, m: Movement): void {
  const before = account.totalBalance;
  account.availableBalance = add(account.availableBalance, m.amount);
  account.totalBalance = add(account.totalBalance, m.amount);
  write(ctx, account, m, 'IN', before);
}

export function collectFee(ctx: Ctx, amount: string): void {
  ctx.state.feesCollected = add(ctx.state.feesCollected, amount);
}

/** Money that came from (positive) or left to (negative) the world outside the sandbox. */
export function externalFlow(ctx: Ctx, amount: string): void {
  ctx.state.externalCredits = add(ctx.state.externalCredits, amount);
}

/** An account as the provider opens it: in USD, empty, its amounts to two decimals. */
export function openedAccount(accountId: string, accountName: string, accountType: Account['accountType']): Account {
  return {
    accountId,
    accountName,
    accountType,
    currency: 'USD',
    totalBalance: '0',
    availableBalance: '0',
    frozenBalance: '0',
    digital: 2,
  };
}

export function createAccount(ctx: Ctx, accountType: Account['accountType'], accountName: string): Account {
  const account = openedAccount(ctx.ids.longId().slice(0, 17), accountName, accountType);
  ctx.state.accounts.set(account.accountId, account);
  return account;
}

export function moneySnapshot(ctx: Ctx): { totalBalances: string; feesCollected: string; externalCredits: string } {
  const accounts = [...ctx.state.accounts.values()].map((a) => a.totalBalance);
  const cards = [...ctx.state.cards.values()].map((c) => c.balance);
  return {
    totalBalances: add(...accounts, ...cards),
    feesCollected: ctx.state.feesCollected,
    externalCredits: ctx.state.externalCredits,
  };
}

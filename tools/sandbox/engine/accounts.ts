/**
 * Ledger accounts (spec: /account/info, /account/list, /account/single/query, /account/transaction,
 * /account/create, /account/transfer). TRANSFER moves WALLET -> MARGIN (fund_transfer), COLLECTION
 * moves MARGIN -> WALLET (fund_collection); both write an entry on each account.
 */
import { cmp, scale } from '../../../provider/money';
import { ACCOUNT_PAGE_SIZE_MAX, LEDGER_RANGE_DAYS } from '../../../provider/rules';
import { paramError, type Ctx } from './context';
import { createAccount, credit, debit, getAccount, requireAvailable } from './ledger';
import { registerOrder, requireNewOrder } from './orders';
import { byField, inTimeRange, newestFirst, page } from './paging';
import { amount as reqAmount, long, optLong, optText, text, type Req } from './request';
import { accountWire, ledgerWire } from './wire';

export function getAccountInfo(ctx: Ctx): unknown {
  return [...ctx.state.accounts.values()].map(accountWire);
}

export function listAccounts(ctx: Ctx, req: Req): unknown {
  let accounts = [...ctx.state.accounts.values()];
  accounts = byField(accounts, req, 'accountId');
  const type = optText(req, 'type');
  if (type !== undefined) accounts = accounts.filter((a) => a.accountType === type);
  return page(accounts, req, accountWire, ACCOUNT_PAGE_SIZE_MAX);
}

/** The spec's example shows a List of one; we answer the same. */
export function getAccountOne(ctx: Ctx, req: Req): unknown {
  return [accountWire(getAccount(ctx, long(req, 'accountId')))];
}

export function listLedgerEntries(ctx: Ctx, req: Req): unknown {
  let entries = newestFirst(ctx.state.ledger, (e) => e.createTime);
  entries = byField(entries, req, 'orderNo');
  const accountId = optLong(req, 'accountId');
  if (accountId !== undefined) entries = entries.filter((e) => e.accountId === accountId);
  entries = byField(entries, req, 'bizType');
  entries = inTimeRange(ctx, entries, req, (e) => e.createTime, LEDGER_RANGE_DAYS);
  return page(entries, req, ledgerWire);
}

export function createSharedAccount(ctx: Ctx, req: Req): unknown {
  const accountName = text(req, 'accountName').trim();
  if (accountName === '') throw paramError('accountName', 'must not be empty');
  if ([...ctx.state.accounts.values()].some((a) => a.accountName === accountName)) {
    throw paramError('accountName', `an account named "${accountName}" already exists`);
  }
  return [accountWire(createAccount(ctx, 'MARGIN', accountName))];
}

export function transferFunds(ctx: Ctx, req: Req): unknown {
  const type = text(req, 'type');
  if (type !== 'TRANSFER' && type !== 'COLLECTION') throw paramError('type', 'must be TRANSFER or COLLECTION');
  const merchantOrderNo = text(req, 'merchantOrderNo');
  requireNewOrder(ctx, merchantOrderNo);
  const amount = reqAmount(req, 'amount');
  if (cmp(amount, '0') <= 0) throw paramError('amount', 'must be greater than 0');
  const payer = getAccount(ctx, long(req, 'payerAccountId'), 'payerAccountId');
  const payee = getAccount(ctx, long(req, 'payeeAccountId'), 'payeeAccountId');
  if (payer.accountId === payee.accountId) throw paramError('payeeAccountId', 'must differ from payerAccountId');
  const [from, to] = type === 'TRANSFER' ? (['WALLET', 'MARGIN'] as const) : (['MARGIN', 'WALLET'] as const);
  if (payer.accountType !== from)
    throw paramError(
      'payerAccountId',
      `a ${type} is paid from a ${from} account; ${payer.accountId} is ${payer.accountType}`,
    );
  if (payee.accountType !== to)
    throw paramError(
      'payeeAccountId',
      `a ${type} is paid to a ${to} account; ${payee.accountId} is ${payee.accountType}`,
    );
  if (payer.currency !== payee.currency)
    throw paramError('payeeAccountId', `currency ${payee.currency} differs from the payer's ${payer.currency}`);
  if (scale(amount) > payer.digital) {
    throw paramError('amount', `must have at most ${payer.digital} decimals`);
  }
  requireAvailable(payer, amount);

  const orderNo = ctx.ids.orderNo();
  const bizType = type === 'TRANSFER' ? 'fund_transfer' : 'fund_collection';
  const remark = optText(req, 'remark') ?? null;
  registerOrder(ctx, merchantOrderNo, type === 'TRANSFER' ? 'fund transfer' : 'fund collection', orderNo);
  debit(ctx, payer, { amount, bizType, orderNo, remark });
  credit(ctx, payee, { amount, bizType, orderNo, remark });
  return true;
}

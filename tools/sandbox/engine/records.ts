/**
 * Card record queries (spec, "Card records"): purchases, card operations (v1 with a required
 * type, v2 without; v2 hides the create records of the deprecated openCard), authorizations,
 * authorization fees and 3DS / activation-code records. Newest first, paged.
 */
import { optLong, optText, type Req } from './request';
import { byFields, inTimeRange, newestFirst, page } from './paging';
import type { Ctx } from './context';
import { authFeeWire, authWire, operationWire, purchaseWire, threeDsWire } from './wire';
import type { CardOperation } from './state';

export function listCardPurchases(ctx: Ctx, req: Req): unknown {
  let records = newestFirst(ctx.state.purchases, (p) => p.transactionTime);
  records = byFields(records, req, ['merchantOrderNo', 'orderNo']);
  records = inTimeRange(ctx, records, req, (p) => p.transactionTime);
  return page(records, req, purchaseWire);
}

function operations(ctx: Ctx, req: Req, v2: boolean): unknown {
  let records: CardOperation[] = newestFirst(ctx.state.operations, (o) => o.transactionTime);
  if (v2) records = records.filter((o) => !(o.deprecated && o.type === 'create'));
  records = byFields(records, req, ['type', 'merchantOrderNo', 'orderNo', 'cardNo']);
  records = inTimeRange(ctx, records, req, (o) => o.transactionTime);
  return page(records, req, operationWire);
}

export const listCardTransactionsV1 = (ctx: Ctx, req: Req) => operations(ctx, req, false);
export const listCardTransactions = (ctx: Ctx, req: Req) => operations(ctx, req, true);

export function listCardAuthTransactions(ctx: Ctx, req: Req): unknown {
  let records = newestFirst(ctx.state.auths, (a) => a.transactionTime);
  records = byFields(records, req, ['type', 'tradeNo', 'cardNo']);
  records = inTimeRange(ctx, records, req, (a) => a.transactionTime);
  return page(records, req, authWire);
}

export function listCardAuthFees(ctx: Ctx, req: Req): unknown {
  let records = newestFirst(ctx.state.authFees, (f) => f.transactionTime);
  const cardTypeId = optLong(req, 'cardTypeId');
  if (cardTypeId !== undefined) records = records.filter((f) => f.cardTypeId === cardTypeId);
  records = byFields(records, req, ['tradeNo', 'cardNo', 'originTradeNo']);
  const tradeType = optText(req, 'tradeType');
  if (tradeType !== undefined) records = records.filter((f) => f.type === tradeType);
  records = inTimeRange(ctx, records, req, (f) => f.transactionTime);
  return page(records, req, authFeeWire);
}

export function listCard3dsRecords(ctx: Ctx, req: Req): unknown {
  let records = newestFirst(ctx.state.threeDs, (r) => r.transactionTime);
  records = byFields(records, req, ['type', 'tradeNo', 'cardNo']);
  records = inTimeRange(ctx, records, req, (r) => r.transactionTime);
  return page(records, req, (r) => threeDsWire(ctx, r));
}

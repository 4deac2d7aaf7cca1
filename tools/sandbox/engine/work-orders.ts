/**
 * Work orders (spec, "Work orders"). Submitted wait_process, processing after workOrderMs and
 * decided after another workOrderMs (success by default; magic merchantOrderNo suffixes _FAIL /
 * _STALL; or the decideWorkOrder helper). A successful CARD_ACTIVE activates the physical card
 * named by target (un_activated -> Normal); a successful OTHER whose target is a blocked card
 * lifts the block (the "manual application" of the spec). Each change emits `work`.
 */
import { getCardType } from './card-types';
import { unblockCard } from './card-operations';
import { notFound, paramError, stateError, type Ctx } from './context';
import { operationOutcome } from './magic';
import { registerOrder, requireNewOrder } from './orders';
import { byFields, newestFirst, page } from './paging';
import { optList, optText, text, type Req } from './request';
import type { WorkOrder } from './state';
import { workOrderWire } from './wire';

function emitWork(ctx: Ctx, w: WorkOrder): void {
  w.updateTime = ctx.now();
  ctx.emit('work', workOrderWire(w));
}

function finish(ctx: Ctx, w: WorkOrder, outcome: 'success' | 'fail', description?: string): void {
  w.cancelStep?.();
  w.cancelStep = null;
  const card = ctx.state.cards.get(w.target);
  if (outcome === 'success' && w.tradeType === 'CARD_ACTIVE') {
    if (card && card.status === 'un_activated') {
      card.status = 'Normal';
      w.tradeStatus = 'success';
      w.description = description ?? 'Card activated';
    } else {
      w.tradeStatus = 'fail';
      w.description = `Card ${w.target} is ${card?.status ?? 'unknown'}; it can no longer be activated`;
    }
  } else if (outcome === 'success') {
    if (card?.blocked) unblockCard(ctx, card);
    w.tradeStatus = 'success';
    w.description = description ?? 'Processed';
  } else {
    w.tradeStatus = 'fail';
    w.description = description ?? 'Rejected by the platform';
  }
  emitWork(ctx, w);
}

export function submitWorkOrder(ctx: Ctx, req: Req): unknown {
  const merchantOrderNo = text(req, 'merchantOrderNo');
  requireNewOrder(ctx, merchantOrderNo);
  const title = text(req, 'title');
  const target = text(req, 'target');
  const tradeType = text(req, 'tradeType');
  if (tradeType !== 'CARD_ACTIVE' && tradeType !== 'OTHER')
    throw paramError('tradeType', 'must be CARD_ACTIVE or OTHER');
  const files = optList(req, 'files') ?? [];
  for (const fileId of files) {
    if (!ctx.state.files.has(fileId)) throw notFound('files', `file ${fileId} was not uploaded`);
  }
  if (tradeType === 'CARD_ACTIVE') {
    const card = ctx.state.cards.get(target);
    if (!card)
      throw notFound('target', `card ${target} does not exist (for CARD_ACTIVE the target is the card number)`);
    if (getCardType(ctx, card.cardTypeId).type !== 'Physical')
      throw paramError('target', `card ${target} is virtual; only physical cards are activated`);
    if (card.status !== 'un_activated')
      throw stateError('target', `card ${target} is ${card.status}; only an un_activated card can be activated`);
  }

  const now = ctx.now();
  const outcome = operationOutcome(merchantOrderNo);
  const w: WorkOrder = {
    merchantOrderNo,
    orderNo: ctx.ids.orderNo(),
    title,
    target,
    content: optText(req, 'content') ?? null,
    files,
    tradeType,
    tradeStatus: 'wait_process',
    description: null,
    createTime: now,
    updateTime: now,
    stall: outcome === 'stall',
    fail: outcome === 'fail',
    cancelStep: null,
  };
  ctx.state.workOrders.push(w);
  registerOrder(ctx, merchantOrderNo, 'work order', w.orderNo);
  emitWork(ctx, w);
  const delay = ctx.deps.delays.workOrderMs;
  w.cancelStep = ctx.later(delay, () => {
    w.tradeStatus = 'processing';
    emitWork(ctx, w);
    w.cancelStep = w.stall ? null : ctx.later(delay, () => finish(ctx, w, w.fail ? 'fail' : 'success'));
  });
  return workOrderWire(w);
}

export function listWorkOrders(ctx: Ctx, req: Req): unknown {
  let orders = newestFirst(ctx.state.workOrders, (w) => w.createTime);
  orders = byFields(orders, req, ['merchantOrderNo', 'orderNo', 'target', 'tradeType', 'tradeStatus']);
  return page(orders, req, workOrderWire);
}

/** decideWorkOrder helper. */
export function decideWorkOrder(ctx: Ctx, orderNo: string, outcome: 'success' | 'fail', description?: string): unknown {
  const w = ctx.state.workOrders.find((o) => o.orderNo === orderNo || o.merchantOrderNo === orderNo);
  if (!w) throw notFound('orderNo', `no work order ${orderNo}`);
  if (w.tradeStatus === 'success' || w.tradeStatus === 'fail')
    throw stateError('orderNo', `work order ${w.orderNo} is already ${w.tradeStatus}`);
  finish(ctx, w, outcome, description);
  return workOrderWire(w);
}

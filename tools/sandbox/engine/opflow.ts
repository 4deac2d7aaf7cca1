/**
 * Lifecycle of a card operation record: wait_process -> processing -> success | fail, one
 * step per `delays.cardOperationMs` of sandbox time. Every status change is pushed as a
 * `card_transaction` event whose payload equals the query record (provider-notes, Webhooks).
 * A stalled operation stays `processing` until the decideOperation helper finishes it.
 */
import { notFound, stateError, type Ctx } from './context';
import type { Outcome } from './magic';
import type { CardOperation } from './state';
import { operationWire } from './wire';

export interface OperationHooks {
  /** Applies the effect of success (money, card status). Runs before the record turns success. */
  onSuccess(op: CardOperation): void;
  /** Undoes holds and restores state. Runs before the record turns fail. */
  onFail(op: CardOperation): void;
  /** Called after the record reached a final status (e.g. to sync the purchase record). */
  after?(op: CardOperation): void;
}

export function emitOperation(ctx: Ctx, op: CardOperation): void {
  ctx.emit('card_transaction', operationWire(op));
}

export const FAIL_REASON = 'Declined by the issuing bank';

/** Adds the record, emits it, and drives it to its outcome on the clock. */
export function startOperation(ctx: Ctx, op: CardOperation, outcome: Outcome, hooks: OperationHooks): void {
  ctx.state.operations.push(op);
  emitOperation(ctx, op);
  const delay = ctx.deps.delays.cardOperationMs;
  const finish = (result: 'success' | 'fail', reason?: string) => {
    ctx.state.pendingOperations.delete(op.orderNo);
    if (result === 'success') {
      hooks.onSuccess(op);
      op.status = 'success';
      op.description = op.description ?? 'Success';
    } else {
      hooks.onFail(op);
      op.status = 'fail';
      op.description = reason ?? FAIL_REASON;
    }
    op.transactionTime = ctx.now();
    hooks.after?.(op);
    emitOperation(ctx, op);
  };
  const pending = { orderNo: op.orderNo, finish, cancelStep: null as (() => void) | null };
  ctx.state.pendingOperations.set(op.orderNo, pending);
  pending.cancelStep = ctx.later(delay, () => {
    op.status = 'processing';
    emitOperation(ctx, op);
    if (outcome === 'stall') {
      pending.cancelStep = null;
      return;
    }
    pending.cancelStep = ctx.later(delay, () => finish(outcome));
  });
}

/** decideOperation helper: finishes a pending (or stalled) operation now. */
export function decideOperation(
  ctx: Ctx,
  orderNo: string,
  outcome: 'success' | 'fail',
  reason?: string,
): CardOperation {
  const op = ctx.state.operations.find(
    (o) => o.orderNo === orderNo || (o.merchantOrderNo !== null && o.merchantOrderNo === orderNo),
  );
  if (!op) throw notFound('orderNo', `no card operation ${orderNo}`);
  const pending = ctx.state.pendingOperations.get(op.orderNo);
  if (!pending) throw stateError('orderNo', `card operation ${op.orderNo} is already ${op.status}`);
  pending.cancelStep?.();
  if (op.status === 'wait_process') {
    op.status = 'processing';
    emitOperation(ctx, op);
  }
  pending.finish(outcome, reason);
  return op;
}

export function newOperation(
  ctx: Ctx,
  fields: Pick<CardOperation, 'type' | 'cardNo' | 'currency' | 'amount' | 'fee'> & Partial<CardOperation>,
): CardOperation {
  return {
    orderNo: ctx.ids.orderNo(),
    originOrderNo: null,
    merchantOrderNo: null,
    receivedAmount: null,
    receivedCurrency: null,
    subType: null,
    status: 'wait_process',
    description: null,
    transactionTime: ctx.now(),
    deprecated: false,
    ...fields,
  };
}

/**
 * merchantOrderNo registry. A merchantOrderNo is unique across ALL operation types
 * (provider-notes, Responses: "a cancel cannot reuse the create's number").
 *
 * A repeat never creates a second order: it is refused with code 40003 and msg
 * "Duplicate order number ..." (as production answers) and nothing changes; the caller then
 * reads the first order back with a query by merchantOrderNo.
 */
import { SandboxErrorCode } from '../contract';
import { reject, type Ctx } from './context';

/**
 * Refuses a merchantOrderNo already used by any operation (call while validating, before any
 * change).
 */
export function requireNewOrder(ctx: Ctx, merchantOrderNo: string): void {
  const used = ctx.state.merchantOrders.get(merchantOrderNo);
  if (used) {
    throw reject(
      SandboxErrorCode.duplicateOrder,
      'merchantOrderNo',
      `Duplicate order number: ${merchantOrderNo} was already used by a ${used.kind} order (orderNo ${used.orderNo}); query it by merchantOrderNo`,
    );
  }
}

/** Records a merchantOrderNo as used (after validation passed). */
export function registerOrder(ctx: Ctx, merchantOrderNo: string, kind: string, orderNo: string): void {
  ctx.state.merchantOrders.set(merchantOrderNo, { kind, orderNo });
}

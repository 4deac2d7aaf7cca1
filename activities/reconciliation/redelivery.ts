/**
 * Repairs are re-deliveries only: a missed event goes to its workflow as the signal its webhook
 * would have sent (the receiver's own path, webhooks/card-route.ts `deliverToOwners`, behind the
 * port: the card's workflow by signal-with-start, then `routeEvent`'s owners); nothing here
 * mutates anything at the provider.
 */
import type { Finding } from '../../domain/reconciliation';
import type { ProviderOrder } from '../../domain/reconciliation-rules';
import type { ReconcilePort } from './temporal-port';

/** Re-delivers `order`'s event to its running owners; the finding says whether one took it. */
export async function redeliver(
  port: ReconcilePort,
  order: ProviderOrder,
  key: string | undefined,
  finding: Finding,
  now: number,
): Promise<Finding> {
  const event = { ...order.event, requestId: `reconcile-${key ?? 'order'}-${now}` };
  const signalled = await port.redeliver(event);
  return signalled.length
    ? { ...finding, repaired: true, action: `re-delivered to ${signalled.join(', ')}` }
    : { ...finding, action: `${finding.action}: no running owner took it; check the workflow` };
}

/**
 * Delivers a card's own event (an operation the provider started) to the card's workflow, starting
 * it when nobody followed the card; `finding` only then, repaired: a running workflow that had the
 * event ignores the repeat, and one that missed it learns it now.
 */
export async function deliverToCard(
  port: ReconcilePort,
  order: ProviderOrder,
  finding: Finding,
  now: number,
): Promise<Finding | undefined> {
  const record = order.event.record as { orderNo?: string };
  const event = { ...order.event, requestId: `reconcile-card-${record.orderNo ?? 'order'}-${now}` };
  const delivered = await port.deliverToCard(event);
  if (!delivered?.started) return undefined;
  return { ...finding, ids: { ...finding.ids, workflowId: delivered.workflowId }, repaired: true };
}

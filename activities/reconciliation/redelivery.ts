/**
 * Repairs are re-deliveries only: a missed event goes to its workflow as the signal its webhook
 * would have sent (`routeEvent` + the receiver's forwarder, behind the port); nothing here
 * mutates anything at the provider.
 */
import type { Finding } from '../../domain/reconciliation';
import type { ProviderOrder } from '../../domain/reconciliation-rules';
import type { ReconcilePort } from '../reconciliation-port';

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

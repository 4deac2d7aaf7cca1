/**
 * Judging a page of provider orders against the workflows that own them (domain/reconciliation-rules.ts
 * decides), and repairing what a missed webhook left waiting by re-delivering it (redelivery.ts).
 */
import type { Finding, ReconcileConfig } from '../../domain/reconciliation';
import {
  isCardflowOrderNo,
  judgeOrder,
  merchantOrderNoOf,
  type OwnerRun,
  type ProviderOrder,
} from '../../domain/reconciliation-rules';
import type { ReconcilePort } from '../reconciliation-port';
import { redeliver } from './redelivery';

/** Judges a page of orders against their owners; re-delivers the missed events. */
export async function judgeOrders(
  port: () => ReconcilePort,
  orders: readonly ProviderOrder[],
  config: ReconcileConfig,
): Promise<Finding[]> {
  const keys = [...new Set(orders.map((o) => merchantOrderNoOf(o.event)).filter(isCardflowOrderNo))];
  const owners: Record<string, OwnerRun[]> = keys.length ? await port().ownersOf(keys) : {};
  const now = Date.now();
  const findings: Finding[] = [];
  for (const order of orders) {
    const key = merchantOrderNoOf(order.event);
    const verdict = judgeOrder(order, key ? (owners[key] ?? []) : [], now, config);
    if (!verdict.finding) continue;
    findings.push(verdict.redeliver ? await redeliver(port(), order, key, verdict.finding, now) : verdict.finding);
  }
  return findings;
}

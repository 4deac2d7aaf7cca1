/**
 * Judging a page of provider orders against the workflows that own them
 * (domain/reconciliation-rules.ts decides), and repairing what a missed webhook left waiting by
 * re-delivering it (redelivery.ts).
 */
import type { Finding, ReconcileConfig } from '../../domain/reconciliation';
import {
  isCardflowOrderNo,
  judgeOrder,
  lateDepositFinding,
  merchantOrderNoOf,
  type OwnerRun,
  type ProviderOrder,
} from '../../domain/reconciliation-rules';
import type { WalletTransaction } from '../../provider/schemas/wallet';
import type { ProviderPort } from '../deps';
import type { ReconcilePort } from './temporal-port';
import { deliverToCard, redeliver } from './redelivery';

/**
 * A credited deposit of the page: the only wallet transactions a funding could have left behind.
 */
function creditedDeposit(order: ProviderOrder): WalletTransaction | undefined {
  if (order.event.category !== 'wallet_transaction_v2') return undefined;
  const record = order.event.record;
  return record.type === 'DEPOSIT' && record.status === 'success' ? record : undefined;
}

/**
 * Judges a page of orders against their owners; re-delivers the missed events. A credited
 * deposit is also judged against the fundings that listed its address (found in the same
 * `ownersOf` lookup: walletFunding lists the address in CardflowOrderNos), for a deposit that
 * arrived after they had all ended.
 */
export async function judgeOrders(
  provider: ProviderPort,
  port: () => ReconcilePort,
  orders: readonly ProviderOrder[],
  config: ReconcileConfig,
): Promise<Finding[]> {
  const deposits = orders.map(creditedDeposit);
  const keys = [
    ...new Set([
      ...orders.map((o) => merchantOrderNoOf(o.event)).filter(isCardflowOrderNo),
      ...deposits.flatMap((d) => (d ? [d.destinationAddress] : [])),
    ]),
  ];
  const owners: Record<string, OwnerRun[]> = keys.length ? await port().ownersOf(keys) : {};
  const now = Date.now();
  const findings: Finding[] = [];
  let wallets: Promise<Map<string, string>> | undefined;
  for (const [i, order] of orders.entries()) {
    const key = merchantOrderNoOf(order.event);
    const verdict = judgeOrder(order, key ? (owners[key] ?? []) : [], now, config);
    if (verdict.finding)
      findings.push(verdict.redeliver ? await redeliver(port(), order, key, verdict.finding, now) : verdict.finding);
    if (verdict.toCard) {
      const followed = await deliverToCard(port(), order, verdict.toCard.finding, now);
      if (followed) findings.push(followed);
    }
    const deposit = deposits[i];
    const runs = deposit ? (owners[deposit.destinationAddress] ?? []) : [];
    if (!deposit || !lateDepositFinding(deposit, runs, undefined)) continue;
    // The WALLET's account id, read once per page and only when a late deposit needs naming.
    wallets ??= provider
      .getAccountInfo()
      .then(
        (accounts) => new Map(accounts.filter((a) => a.accountType === 'WALLET').map((a) => [a.currency, a.accountId])),
      );
    findings.push(lateDepositFinding(deposit, runs, (await wallets).get(deposit.receivedCurrency))!);
  }
  return findings;
}

/**
 * The balance check: every account's available balance against its floor and against what
 * running workflows are about to spend from it, and the money left at the provider by processes
 * that failed or were cancelled (open `strandedMoney` records).
 */
import { add } from '../../provider/money';
import { balanceFindings, strandedFindings } from '../../domain/reconciliation-rules';
import type { Finding, ReconcileConfig } from '../../domain/reconciliation';
import { cardDepositWorkflow, cardIssuanceWorkflow, WorkflowTypes } from '../../domain/workflows';
import type { ProviderPort } from '../deps';
import type { ReconcilePort } from './temporal-port';

/**
 * Per paying account (`''`: the merchant WALLET): what running workflows will still take. A card
 * creation or deposit whose order is at the provider already holds or spent its money (it shows
 * in the balance), and an onboarding whose card child runs spends through that child: neither
 * counts twice.
 */
async function pendingCommitments(
  provider: ProviderPort,
  port: () => ReconcilePort,
  taskQueue: string,
): Promise<Record<string, string>> {
  const commitments: Record<string, string> = {};
  for (const spender of await port().runningSpenders(taskQueue)) {
    if (spender.spendsThroughChild) continue;
    const key =
      spender.workflowType === WorkflowTypes.cardIssuance
        ? cardIssuanceWorkflow.orderKeys(spender.workflowId).create
        : spender.workflowType === WorkflowTypes.cardDeposit
          ? cardDepositWorkflow.orderKeys(spender.workflowId).deposit
          : undefined;
    if (key) {
      const sent = await provider.listCardTransactions({ pageNum: 1, pageSize: 10, merchantOrderNo: key });
      if (sent.records.length) continue;
    }
    const account = spender.accountId ?? '';
    commitments[account] = add(commitments[account] ?? '0', spender.amount);
  }
  return commitments;
}

/**
 * Every account's available balance against its floor (WALLET: the merchant wallet's; MARGIN:
 * the shared accounts') and against what running workflows are about to spend from it; and the
 * money failed processes left at the provider that no operator has acknowledged yet.
 */
export async function checkBalances(
  provider: ProviderPort,
  port: () => ReconcilePort,
  taskQueue: string,
  config: ReconcileConfig,
): Promise<Finding[]> {
  const accounts = await provider.getAccountInfo();
  const commitments = await pendingCommitments(provider, port, taskQueue);
  const wallet = accounts.find((a) => a.accountType === 'WALLET');
  const findings: Finding[] = [];
  for (const account of accounts) {
    const floor = account.accountType === 'WALLET' ? config.walletFloor : config.sharedAccountFloor;
    const pending = add(commitments[account.accountId] ?? '0', account === wallet ? (commitments[''] ?? '0') : '0');
    findings.push(...balanceFindings(account, floor, pending));
  }
  for (const record of await port().openStrandedRecords(taskQueue)) findings.push(...strandedFindings(record));
  return findings;
}

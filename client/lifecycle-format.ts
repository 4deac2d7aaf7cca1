/**
 * One-line renderings of the lifecycle workflows' status and results for the CLI (business
 * references, amounts and card numbers the merchant already has; never a PIN, code or personal data).
 */
import type { CardDepositOutcome, CardEntityResult, CardSnapshot } from '../domain/card-entity';
import type { CardOperationOutcome, CardOperationStatus } from '../domain/card-operations';
import type { FundTransferResult, FundTransferStatus, LedgerLeg } from '../domain/fund-transfer';
import type { PhysicalCardActivationResult, PhysicalCardActivationStatus } from '../domain/physical-card-activation';
import type { SharedAccountResult } from '../domain/shared-account';
import type { WalletFundingResult, WalletFundingStatus } from '../domain/wallet-funding';
import type { FailureSummary } from '../domain/workflow-types';

function withDetails(stage: string, details: (string | false | undefined)[], failure?: FailureSummary): string {
  const shown = details.filter((d): d is string => typeof d === 'string' && d !== '');
  if (failure) shown.push(`${failure.type}: ${failure.message}`);
  return shown.length ? `${stage} (${shown.join(', ')})` : stage;
}

export function describeActivationStatus(s: PhysicalCardActivationStatus): string {
  return withDetails(
    s.stage,
    [
      `route ${s.route}`,
      s.merchantOrderNo && `order ${s.merchantOrderNo}`,
      s.workOrderNo && `work order ${s.workOrderNo}${s.workOrderStatus ? ` ${s.workOrderStatus}` : ''}`,
    ],
    s.failure,
  );
}

export function describeActivationResult(r: PhysicalCardActivationResult): string {
  return `card ${r.cardNo} is ${r.cardStatus}: activated by ${r.route === 'work_order' ? `work order ${r.workOrderNo ?? '?'}` : 'activation code'} (order ${r.merchantOrderNo})`;
}

export function describeTransferStatus(s: FundTransferStatus): string {
  return withDetails(s.stage, [s.merchantOrderNo && `order ${s.merchantOrderNo}`], s.failure);
}

const leg = (l: LedgerLeg) =>
  `account ${l.accountId} ${l.direction} ${l.amount}: ${l.beforeBalance} -> ${l.afterBalance}`;

export function describeTransferResult(r: FundTransferResult): string {
  return [
    `${r.type} ${r.amount} ${r.currency} confirmed in the ledger (order ${r.merchantOrderNo}${r.sent ? '' : ', sent by an earlier attempt'})`,
    leg(r.payer),
    leg(r.payee),
  ].join('\n');
}

export function describeSharedAccountResult(r: SharedAccountResult): string {
  return `shared account "${r.accountName}": ${r.accountId} (${r.currency}, ${r.created ? 'created' : 'already existed'})`;
}

export function describeFundingStatus(s: WalletFundingStatus): string {
  return withDetails(
    s.stage,
    [
      s.address && `address ${s.address}`,
      s.walletOrderNo && `wallet order ${s.walletOrderNo}`,
      s.depositStatus && `deposit ${s.depositStatus}`,
      s.receivedAmount && `received ${s.receivedAmount}`,
    ],
    s.failure,
  );
}

export function describeFundingResult(r: WalletFundingResult): string {
  const lines = [
    `received ${r.receivedAmount} ${r.currency} from ${r.txAmount ?? '?'} ${r.coinKey} at ${r.address} (wallet order ${r.walletOrderNo}, ${r.confirmations} confirmations)`,
  ];
  if (r.transfer) lines.push(`transferred ${r.transfer.amount} (order ${r.transfer.merchantOrderNo})`);
  if (r.deposit)
    lines.push(`deposited ${r.deposit.amount} to the card, fee ${r.deposit.fee} (order ${r.deposit.merchantOrderNo})`);
  return lines.join('\n');
}

export function describeCardOperationStatus(s: CardOperationStatus): string {
  return withDetails(
    s.stage,
    [s.kind, s.merchantOrderNo && `order ${s.merchantOrderNo}`, s.operationStatus && `operation ${s.operationStatus}`],
    s.failure,
  );
}

export function describeCardOutcome(o: CardOperationOutcome | CardDepositOutcome): string {
  if (o.kind === 'deposit') {
    return `deposited ${o.amount} to card ${o.cardNo}, fee ${o.fee} (order ${o.merchantOrderNo})${o.balance ? `; balance ${o.balance.amount} ${o.balance.currency}` : ''}`;
  }
  return `${o.kind} of card ${o.cardNo}: ${o.status}, card is ${o.cardStatus} (order ${o.merchantOrderNo})`;
}

export function describeCardSnapshot(s: CardSnapshot): string {
  const parts = [
    s.balance ? `balance ${s.balance.amount} ${s.balance.currency}` : undefined,
    `${s.authorizationCount} authorization${s.authorizationCount === 1 ? '' : 's'}`,
    s.pending ? `${s.pending} operation${s.pending === 1 ? '' : 's'} pending` : undefined,
    s.asOf ? `as of ${new Date(s.asOf).toISOString()}` : undefined,
  ].filter(Boolean);
  return `card ${s.cardNo}: ${s.cancelled ? 'cancel' : (s.status ?? 'unknown')} (${parts.join(', ')})`;
}

export function describeCardEntityResult(r: CardEntityResult): string {
  return `card ${r.cardNo} is cancelled${r.reason ? `: ${r.reason}` : ''} (${r.authorizationCount} authorizations over ${r.runs} runs)`;
}

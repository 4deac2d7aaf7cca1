/**
 * One-line renderings of every cardflow workflow's progress, status and result, for the CLI,
 * `npm start` and dashboards: business references, amounts and the provider's card ids the
 * merchant already has; never a PIN, an activation code or personal data.
 */
import { describeCompensation } from '../domain/compensation';
import type { OnboardingProgress, OnboardingResult, OnboardingStage } from '../domain';
import type { CardCancellation, CardEntityOutcome, CardEntityResult, CardSnapshot } from '../domain/card-entity';
import type { CardTotals } from '../domain/card-ledger';
import { cmp } from '../provider/money';
import type { CardOperationStatus } from '../domain/card-operations';
import type { FundTransferResult, FundTransferStatus, LedgerLeg } from '../domain/fund-transfer';
import type { PhysicalCardActivationResult, PhysicalCardActivationStatus } from '../domain/physical-card-activation';
import type { SharedAccountResult } from '../domain/shared-account';
import type { WalletFundingResult, WalletFundingStatus } from '../domain/wallet-funding';
import type { FailureSummary } from '../domain/summaries';
/** What each onboarding stage means, for people (CLI help, dashboards). */
export const STAGE_DESCRIPTIONS: Readonly<Record<OnboardingStage, string>> = {
  validating: 'checking the request against the card type and balances; nothing sent yet',
  cardholder_review: 'cardholder in review (platform, then bank)',
  awaiting_correction: 'cardholder rejected; waiting for corrected data',
  transferring: 'moving the money from the wallet to the shared account the card is charged to',
  creating_card: 'creating the card',
  awaiting_delivery: 'physical card created (un_activated); waiting until it reached the customer (activateCard)',
  activating: 'activating the physical card',
  awaiting_payment: 'waiting for the customer’s on-chain deposit',
  funding: 'depositing to the card',
  completed: 'done',
  failed: 'failed',
  cancelled: 'stopped by an operator',
};

/**
 * The Temporal Web UI page of a workflow, e.g.
 * `http://127.0.0.1:8233/namespaces/default/workflows/onboarding-acme-1`.
 */
export function workflowUiUrl(uiBaseUrl: string, namespace: string, workflowId: string): string {
  return `${uiBaseUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

/** `cardholder_review (platform review, holder 1989…)`: the stage and what it concerns. */
export function describeProgress(progress: OnboardingProgress): string {
  const details: string[] = [];
  if (progress.review?.statusFlowLocation)
    details.push(progress.review.statusFlowLocation === 'admin' ? 'platform review' : 'bank review');
  if (progress.review?.rejectReason) details.push(`rejected: ${progress.review.rejectReason}`);
  if (progress.stage === 'awaiting_correction' && progress.review)
    details.push(`send a correction with: cardflow correct ${progress.customerRef} --file correction.json`);
  if (progress.stage === 'transferring' && progress.funding?.accountId)
    details.push(`to shared account ${progress.funding.accountId}`);
  if (progress.stage === 'awaiting_delivery') {
    const until = progress.activation?.deadlineAt
      ? ` before ${new Date(progress.activation.deadlineAt).toISOString()}`
      : '';
    details.push(
      `once the customer has the card, send the activateCard update (activation code or work order)${until}`,
    );
  }
  if (progress.stage === 'activating' && progress.activation?.route)
    details.push(`by ${progress.activation.route.replace('_', ' ')}`);
  if (progress.stage === 'awaiting_payment' && progress.funding?.address) {
    const f = progress.funding;
    details.push(
      `pay ${f.expectedAmount ? `${f.expectedAmount} ` : ''}${f.coinKey ?? ''} to ${f.address}${f.chain ? ` (${f.chain})` : ''}`,
    );
    if (f.depositStatus) details.push(`deposit ${f.depositStatus.replace('_', ' ')}`);
  }
  if (progress.holderId) details.push(`holder ${progress.holderId}`);
  if (progress.cardNo) details.push(`card ${progress.cardNo}`);
  if (progress.failure) details.push(`${progress.failure.type}: ${progress.failure.message}`);
  // A failure's message names it already; a cancel has only this.
  if (progress.stage === 'cancelled' && progress.compensation)
    details.push(describeCompensation(progress.compensation));
  return details.length ? `${progress.stage} (${details.join(', ')})` : progress.stage;
}

/** A short summary of what an onboarding created. */
export function describeResult(result: OnboardingResult): string {
  const lines = [`customer ${result.customerRef}: card ${result.card.cardNo} (${result.card.cardStatus})`];
  if (result.cardholder)
    lines.push(
      `cardholder ${result.cardholder.holderId}${result.cardholder.created ? '' : ' (existing)'}, resubmissions ${result.cardholder.resubmissions}`,
    );
  if (result.card.initialDeposit.amount !== '0')
    lines.push(`initial deposit ${result.card.initialDeposit.amount} (fee ${result.card.initialDeposit.fee})`);
  if (result.topUpMerchantOrderNo) lines.push(`shared account funded by transfer ${result.topUpMerchantOrderNo}`);
  if (result.activation)
    lines.push(
      `activated by ${result.activation.route.replace('_', ' ')}${result.activation.workOrderNo ? ` (work order ${result.activation.workOrderNo})` : ''}`,
    );
  if (result.onChainDeposit)
    lines.push(
      `on-chain deposit ${result.onChainDeposit.walletOrderNo}: ${result.onChainDeposit.receivedAmount} ${result.onChainDeposit.currency} credited`,
    );
  if (result.deposit) lines.push(`deposit ${result.deposit.amount} (fee ${result.deposit.fee})`);
  if (result.balance) lines.push(`balance ${result.balance.amount} ${result.balance.currency}`);
  return lines.join('\n');
}

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

export function describeCardOutcome(o: CardEntityOutcome): string {
  if (o.kind === 'deposit') {
    return `deposited ${o.amount} to card ${o.cardNo}, fee ${o.fee} (order ${o.merchantOrderNo})${o.balance ? `; balance ${o.balance.amount} ${o.balance.currency}` : ''}`;
  }
  if (o.kind === 'unblock') {
    return `block of card ${o.cardNo} lifted by work order ${o.workOrderNo} (order ${o.merchantOrderNo}); card is ${o.cardStatus}`;
  }
  return `${o.kind} of card ${o.cardNo}: ${o.status}, card is ${o.cardStatus} (order ${o.merchantOrderNo})`;
}

/** How many of the latest entries `card status` prints. */
const SHOWN_ENTRIES = 5;

/** The totals that are not zero, as `name amount` (the record's money over the card's life). */
function describeTotals(totals: CardTotals): string | undefined {
  const parts = Object.entries(totals)
    .filter(([, value]) => (typeof value === 'number' ? value !== 0 : cmp(value, '0') !== 0))
    .map(([name, value]) => `${name} ${value}`);
  return parts.length ? `totals: ${parts.join(', ')}` : undefined;
}

function describeCancellation(c: CardCancellation): string {
  const returned =
    c.returnedAmount === undefined
      ? 'its balance is not back on the account yet'
      : `${c.returnedAmount}${c.currency ? ` ${c.currency}` : ''} returned to account ${c.accountId ?? '(none: the card held nothing)'}`;
  return `cancelled${c.reason ? ` (${c.reason})` : ''}: ${returned}`;
}

export function describeCardSnapshot(s: CardSnapshot): string {
  const parts = [
    s.balance ? `balance ${s.balance.amount} ${s.balance.currency}` : undefined,
    `${s.authorizationCount} authorization${s.authorizationCount === 1 ? '' : 's'}`,
    s.pending ? `${s.pending} operation${s.pending === 1 ? '' : 's'} pending` : undefined,
    s.asOf ? `as of ${new Date(s.asOf).toISOString()}` : undefined,
  ].filter(Boolean);
  const lines = [`card ${s.cardNo}: ${s.cancelled ? 'cancel' : (s.status ?? 'unknown')} (${parts.join(', ')})`];
  if (s.blocked)
    lines.push(
      '  blocked by the issuing bank: lift it with `cardflow card unblock <cardNo> --request <id> --file <ref>`',
    );
  if (s.cancellation) lines.push(`  ${describeCancellation(s.cancellation)}`);
  const totals = s.totals ? describeTotals(s.totals) : undefined;
  if (totals) lines.push(`  ${totals}`);
  for (const e of (s.entries ?? []).slice(-SHOWN_ENTRIES))
    lines.push(`  ${new Date(e.at).toISOString()} ${e.kind} ${e.type} ${e.status} ${e.amount}: ${e.effect} (${e.ref})`);
  return lines.join('\n');
}

export function describeCardEntityResult(r: CardEntityResult): string {
  const returned = r.cancellation?.returnedAmount;
  return `card ${r.cardNo} is cancelled${r.reason ? `: ${r.reason}` : ''} (${r.authorizationCount} authorizations over ${r.runs} runs)${returned === undefined ? '' : `; ${returned}${r.cancellation?.currency ? ` ${r.cancellation.currency}` : ''} returned to its account`}`;
}

/** One-line renderings of onboarding progress for the CLI and `npm start` (business references only, no personal data). */
import type { OnboardingProgress, OnboardingResult, OnboardingStage } from '../domain';

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
};

/** The Temporal Web UI page of a workflow, e.g. `http://127.0.0.1:8233/namespaces/default/workflows/onboarding-acme-1`. */
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
    details.push(`send a correction with: cardflow correct ${progress.customerRef} --file fix.json`);
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

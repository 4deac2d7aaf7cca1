/** One-line renderings of onboarding progress for the CLI and `npm start` (business references only, no personal data). */
import type { OnboardingProgress, OnboardingResult } from '../domain';

/** The Temporal Web UI page of a workflow, e.g. `http://127.0.0.1:8233/namespaces/default/workflows/onboarding-acme-1`. */
export function workflowUiUrl(uiBaseUrl: string, namespace: string, workflowId: string): string {
  return `${uiBaseUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

/** `cardholder_review (platform review, holder 1989…)`: the stage and what it concerns. */
export function describeProgress(progress: OnboardingProgress): string {
  const details: string[] = [];
  if (progress.review?.statusFlowLocation) details.push(progress.review.statusFlowLocation === 'admin' ? 'platform review' : 'bank review');
  if (progress.review?.rejectReason) details.push(`rejected: ${progress.review.rejectReason}`);
  if (progress.stage === 'awaiting_correction' && progress.review) details.push(`send a correction with: cardflow correct ${progress.customerRef} --file fix.json`);
  if (progress.holderId) details.push(`holder ${progress.holderId}`);
  if (progress.cardNo) details.push(`card ${progress.cardNo}`);
  if (progress.failure) details.push(`${progress.failure.type}: ${progress.failure.message}`);
  return details.length ? `${progress.stage} (${details.join(', ')})` : progress.stage;
}

/** A short summary of what an onboarding created. */
export function describeResult(result: OnboardingResult): string {
  const lines = [`customer ${result.customerRef}: card ${result.card.cardNo} (${result.card.cardStatus})`];
  if (result.cardholder) lines.push(`cardholder ${result.cardholder.holderId}${result.cardholder.created ? '' : ' (existing)'}, resubmissions ${result.cardholder.resubmissions}`);
  if (result.card.initialDeposit.amount !== '0') lines.push(`initial deposit ${result.card.initialDeposit.amount} (fee ${result.card.initialDeposit.fee})`);
  if (result.deposit) lines.push(`deposit ${result.deposit.amount} (fee ${result.deposit.fee})`);
  if (result.balance) lines.push(`balance ${result.balance.amount} ${result.balance.currency}`);
  return lines.join('\n');
}

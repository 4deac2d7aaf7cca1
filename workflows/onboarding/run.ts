/**
 * One `customerOnboarding` run as its stages see it (onboarding/stages.ts,
 * onboarding/first-deposit.ts): its input, its validated request, where it reports, and what
 * every child it starts shares.
 */
import type { OnboardingInput } from '../../domain/customer-onboarding';
import type { OnboardingPlan } from '../../domain/onboarding-plan';
import type { Saga } from '../compensation/saga';
import type { Attributes } from '../reporting/search';
import type { DepositStatusTracker } from './funding';
import type { ActivationGate } from './physical';
import type { ReviewRelay } from './review';
import type { OnboardingTracker } from './tracker';
import type { ValidatedOnboarding } from './validation';

/**
 * One onboarding run as its stages see it: its input, its validated request, and where it reports.
 */
export interface OnboardingRun extends ValidatedOnboarding {
  readonly input: OnboardingInput;
  readonly workflowId: string;
  readonly tracker: OnboardingTracker;
  /** Its search attributes (the on-chain stage lists the deposit address for the receiver). */
  readonly attributes: Attributes;
  readonly gate: ActivationGate;
  readonly review: ReviewRelay;
  readonly deposits: DepositStatusTracker;
  /**
   * The account the card and its deposits are charged to (the MARGIN account for shared_account).
   */
  readonly chargedAccountId: string | undefined;
  /** What undoes the steps that moved money, should the onboarding then fail or be cancelled. */
  readonly saga: Saga;
}

/** The account `plan` charges: the shared MARGIN account, or the one the input names. */
export function chargedAccountOf(input: OnboardingInput, plan: OnboardingPlan): string | undefined {
  return plan.funding.source === 'shared_account' ? plan.funding.accountId : input.accountId;
}

/** The customer every child is started for (its CardflowCustomerRef). */
export function asChild(run: OnboardingRun): { customerRef: string } {
  return { customerRef: run.input.customerRef };
}

/** What every child's input carries from the onboarding's. */
export function childCommon(run: OnboardingRun): Pick<OnboardingInput, 'customerRef' | 'wait'> {
  const { input } = run;
  return { customerRef: input.customerRef, ...(input.wait ? { wait: input.wait } : {}) };
}

/**
 * Shows the planned funding source and physical path in progress; a physical card waits for its
 * activation request.
 */
export function showPlan(run: OnboardingRun): void {
  const { input, plan } = run;
  const progress = run.tracker.status;
  const { funding } = plan;
  if (funding.source !== 'merchant_wallet')
    progress.funding = {
      source: funding.source,
      ...(funding.source === 'shared_account' ? { accountId: funding.accountId } : { coinKey: funding.coinKey }),
    };
  if (plan.physical)
    progress.activation = {
      workflowId: run.gate.activationWorkflowId,
      ...(input.activation ? { route: input.activation.route } : {}),
    };
  if (plan.physical && !input.activation) run.gate.expect();
}

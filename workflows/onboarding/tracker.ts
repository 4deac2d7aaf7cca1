/**
 * The onboarding's progress: the shared {@link Tracker} (fail, step, guard) with what an
 * onboarding reports beyond a stage — the stages it went through, its stage as a search attribute
 * (with the ids learned), whether an operator may resume a failure, and what an operator's cancel
 * left under way at the provider.
 */
import { customerOnboardingWorkflow } from '../../domain/workflows';
import { setHandler, type ApplicationFailure } from '@temporalio/workflow';
import { progressQuery, type OnboardingProgress, type OnboardingStage } from '../../domain/customer-onboarding';
import { FailureTypes, isResumable } from '../../domain/failure-types';
import type { FailureSummary } from '../../domain/summaries';
import { propagate } from '../../domain/failures';
import type { Attributes } from '../reporting/search';
import { Tracker } from '../reporting/tracked-status';

/** Ids learned at a stage, upserted with it. */
export interface StageIds {
  holderId?: string | undefined;
  cardNo?: string;
}

const TERMINAL_STAGES: readonly OnboardingStage[] = ['completed', 'failed', 'cancelled'];

export class OnboardingTracker extends Tracker<OnboardingProgress> {
  /** What the failure says in the UI when an operator can resume the onboarding. */
  private readonly resumeHint: string;

  /**
   * Told of each stage the onboarding moves to that is upserted as its CardflowStage (so not
   * creating_card on the 10-action path), terminal ones aside: they end in a result of their own.
   */
  onStage: ((stage: OnboardingStage, previous: OnboardingStage) => void) | undefined;

  constructor(
    progress: OnboardingProgress,
    private readonly attributes: Attributes,
  ) {
    super(progress);
    this.resumeHint = `resumable: cardflow retry ${progress.customerRef}`;
    setHandler(progressQuery, () => progress);
  }

  /**
   * Moves to a stage (kept in the stage history) and, unless `upsert` is false, upserts it with
   * the ids learned so far ({@link Attributes.set} sends only what changed).
   */
  readonly enterStage = (stage: OnboardingStage, upsert = true, ids: StageIds = {}): void => {
    const progress = this.status;
    const previous = progress.stage;
    if (previous !== stage) progress.stages.push({ stage, at: Date.now() });
    progress.stage = stage;
    if (upsert && previous !== stage && !TERMINAL_STAGES.includes(stage)) this.onStage?.(stage, previous);
    if (ids.holderId) progress.holderId = ids.holderId;
    if (ids.cardNo) progress.cardNo = ids.cardNo;
    if (upsert)
      this.attributes.set({
        customerRef: progress.customerRef,
        flow: customerOnboardingWorkflow.flow,
        stage,
        ...(progress.holderId ? { holderId: progress.holderId } : {}),
        ...(progress.cardNo ? { cardNo: progress.cardNo } : {}),
      });
  };

  protected override moveTo(stage: OnboardingStage): void {
    this.enterStage(stage);
  }

  /** A failure is resumable unless its type is final (domain/failure-types.ts). */
  protected override record(failure: FailureSummary): void {
    const progress = this.status;
    progress.failure = { ...failure, retryable: isResumable(failure.type) };
    if (failure.type === FailureTypes.depositFailed && progress.funding) progress.funding.depositStatus = 'fail';
  }

  protected override raise(failure: ApplicationFailure): never {
    if (this.status.failure?.retryable) propagate(failure, this.resumeHint);
    throw failure;
  }

  protected override raiseFrom(error: unknown): never {
    return propagate(error, this.status.failure?.retryable ? this.resumeHint : undefined);
  }

  /**
   * An operator's cancel: the steps that move money finished first (they do not cancel once
   * sent); what waited stops here. The workflow ends cancelled, not failed.
   */
  protected override cancelled(): void {
    const progress = this.status;
    if (progress.stage === 'cancelled') return;
    const pending = pendingAt(progress);
    progress.cancellation = { stage: progress.stage, ...(pending ? { pending } : {}) };
    delete progress.failure;
    this.enterStage('cancelled', false);
  }

  /** A failure reaches the body's end already recorded where it happened (fail, step). */
  protected override escaped(error: unknown): never {
    throw error;
  }
}

/**
 * What was still under way at the provider when an operator cancelled, by the stage it stopped in.
 */
function pendingAt(progress: OnboardingProgress): string | undefined {
  switch (progress.stage) {
    case 'cardholder_review':
      return 'the cardholder stays in review at the provider';
    case 'awaiting_correction':
      return 'the rejected cardholder stays rejected at the provider';
    case 'awaiting_delivery':
      return `card ${progress.cardNo ?? ''} stays un_activated`;
    case 'activating':
      return `the activation of card ${progress.cardNo ?? ''} may still be decided by the provider (work order)`;
    case 'awaiting_payment':
      return `a deposit to ${progress.funding?.address ?? 'the address'} now credits the merchant wallet only`;
    default:
      return undefined;
  }
}

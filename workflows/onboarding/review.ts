/**
 * The cardholder review inside `customerOnboarding`: the cardholder child signals each step of
 * its review (`cardholderProgress`), and while the onboarding waits on the review or on the
 * customer's correction, its progress follows: the stage, where the review stands, a reject
 * reason, and the child a correction goes to.
 */
import { patched, setHandler } from '@temporalio/workflow';
import { cardholderProgressSignal } from '../../domain/cardholder-onboarding';
import type { OnboardingTracker } from './tracker';

/** Patch: the awaiting_correction stage (and the return to review) is upserted. */
const REVIEW_STAGES_SEARCHABLE = 'review-stages-searchable';

/** Relays the cardholder child's review progress into the onboarding's. */
export class ReviewRelay {
  /** The cardholder child's id, the one corrections are sent to. */
  constructor(
    readonly cardholderWorkflowId: string,
    tracker: OnboardingTracker,
  ) {
    const progress = tracker.status;
    setHandler(cardholderProgressSignal, (update) => {
      if (progress.stage !== 'cardholder_review' && progress.stage !== 'awaiting_correction') return;
      const rejectReason = update.stage === 'awaiting_correction' ? update.rejectReason : undefined;
      progress.review = {
        correctionWorkflowId: cardholderWorkflowId,
        ...(update.statusFlowLocation ? { statusFlowLocation: update.statusFlowLocation } : {}),
        ...(rejectReason ? { rejectReason } : {}),
      };
      // An onboarding waiting on the customer's correction is found by its stage, like any other
      // wait.
      tracker.enterStage(
        update.stage === 'awaiting_correction' ? 'awaiting_correction' : 'cardholder_review',
        patched(REVIEW_STAGES_SEARCHABLE),
      );
    });
  }
}

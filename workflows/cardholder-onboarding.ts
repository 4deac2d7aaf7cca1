/**
 * `cardholderOnboarding`: the holder's data is checked against the card type before anything
 * is sent; the holder is created with a merchantOrderNo derived from the workflow id; the
 * review (platform, then bank) is awaited; a reject waits for corrected data through the
 * validated `correctCardholder` Update and resubmits it; a deadline ends the wait.
 */
import { condition, getExternalWorkflowHandle, log, setHandler, workflowInfo } from '@temporalio/workflow';
import type { CardholderReview } from '../activities/types';
import { cardholderDataIssues, type CardholderData } from '../domain/cardholder-data';
import {
  cardholderProgressSignal,
  cardholderStatusQuery,
  correctCardholderUpdate,
  DEFAULT_REVIEW_DEADLINE_MS,
  type CardholderOnboardingInput,
  type CardholderOnboardingResult,
  type CardholderOnboardingStatus,
  type CardholderProgress,
  type CardholderStage,
} from '../domain/cardholder-onboarding';
import { holderEligibilityIssues } from '../domain/eligibility';
import { FailureTypes } from '../domain/failure-types';
import { orderNosKey } from '../domain/start-attributes';
import type { CardType } from '../api/schemas/card-type';
import { isTimeout, nonRetryable, summarize } from '../domain/failures';
import { settled } from './support/cancellation';
import { EventInbox } from './support/inbox';
import { providerCallsFor, reviewWait } from './support/profiles';
import { Attributes, isChild } from './support/search';
import { trackStatus } from './support/tracked-status';
import { waitForReview } from './support/waits';
import { cardholderOnboardingWorkflow } from '../domain/workflows';

/** Why corrected data cannot be used: the field and the rule, never the value. */
function correctionIssues(
  cardType: CardType,
  original: CardholderData,
  corrected: CardholderData,
  existingCards: number,
) {
  const issues = cardholderDataIssues(corrected);
  if (issues.length) return { type: FailureTypes.invalidInput, issues };
  if (corrected.shape !== original.shape) {
    return {
      type: FailureTypes.invalidInput,
      issues: [
        { path: 'holder.shape', message: `must stay ${original.shape} (the holder was created as ${original.shape})` },
      ],
    };
  }
  const eligibility = holderEligibilityIssues(cardType, corrected, { existingCards });
  return eligibility.length ? { type: FailureTypes.notEligible, issues: eligibility } : undefined;
}

export async function cardholderOnboarding(input: CardholderOnboardingInput): Promise<CardholderOnboardingResult> {
  const info = workflowInfo();
  const provider = providerCallsFor(input.wait);
  const inbox = new EventInbox();
  const attributes = new Attributes(input.startAttributes);
  const deadlineAt = Date.now() + (input.reviewDeadlineMs ?? DEFAULT_REVIEW_DEADLINE_MS);
  let cardType: CardType | undefined = input.cardType;
  let holder = input.holder;
  let correction: CardholderData | undefined;
  /** When the pending correction was accepted: the holder changing after it is how a lost answer is recognised. */
  let correctionAt = 0;
  /** Corrections accepted so far, and how many of them were sent. */
  let accepted = 0;
  let sent = 0;

  // The signal, then the query, then the Update: the order the saved histories were made with.
  const tracker = trackStatus<CardholderOnboardingStatus>(
    { stage: 'validating', resubmissions: 0, deadlineAt },
    cardholderStatusQuery,
    inbox,
  );
  const { status, fail, guard } = tracker;
  setHandler(
    correctCardholderUpdate,
    async ({ holder: corrected }) => {
      correction = corrected;
      correctionAt = Date.now();
      const mine = ++accepted;
      await condition(() => sent >= mine || status.stage === 'failed');
      return status;
    },
    {
      validator: ({ holder: corrected }) => {
        if (status.stage !== 'awaiting_correction' || correction !== undefined || !cardType) {
          throw nonRetryable(
            FailureTypes.correctionNotExpected,
            `no reject awaits correction (stage: ${status.stage})`,
          );
        }
        const problem = correctionIssues(cardType, holder, corrected, input.existingCards ?? 0);
        if (problem) throw nonRetryable(problem.type, problem.issues);
      },
    },
  );

  const notifyParent = async (progress: CardholderProgress) => {
    if (!input.notifyParent || !info.parent) return;
    try {
      await getExternalWorkflowHandle(info.parent.workflowId, info.parent.runId).signal(
        cardholderProgressSignal,
        progress,
      );
    } catch (error) {
      log.warn('could not tell the parent about cardholder progress', { error: summarize(error).message });
    }
  };
  /** Moves to a stage; with a review, the status also shows the holder and where its review stands. */
  const enter = (stage: CardholderStage, review?: CardholderReview) => {
    tracker.enter(stage);
    if (review) {
      status.holderId = review.holderId;
      status.status = review.status;
      status.statusFlowLocation = review.statusFlowLocation;
    }
  };

  return guard(async () => {
    const dataIssues = cardholderDataIssues(holder);
    if (dataIssues.length) fail(FailureTypes.invalidInput, dataIssues);
    cardType ??= await provider.getCardType({ cardTypeId: input.cardTypeId });
    const eligibility = holderEligibilityIssues(cardType, holder, { existingCards: input.existingCards ?? 0 });
    if (eligibility.length) fail(FailureTypes.notEligible, eligibility);

    const merchantOrderNo = cardholderOnboardingWorkflow.orderKeys(info.workflowId).create;
    attributes.addOrderNo(merchantOrderNo);
    enter('submitting');
    // Events that arrive from here on belong to this submission.
    let since = inbox.position;
    // A create or correction that may have reached the provider is recorded even if cancelled meanwhile.
    let review = await settled(() =>
      provider.createCardholder({ merchantOrderNo, cardTypeId: input.cardTypeId, holder }),
    );
    enter('in_review', review);
    // card_holder webhooks route by CardflowOrderNos (set at start for a child) or by holderId.
    if (!isChild()) attributes.set({ holderId: review.holderId, customerRef: input.customerRef, flow: 'cardholder' });
    else if (!orderNosKey()) attributes.set({ holderId: review.holderId });
    const profile = reviewWait(input.wait);

    for (;;) {
      if (review.status !== 'pass_audit' && review.status !== 'reject') {
        try {
          review = await waitForReview(inbox, review.holderId, since, profile, deadlineAt - Date.now());
        } catch (error) {
          if (isTimeout(error))
            fail(
              FailureTypes.reviewDeadlineExceeded,
              `cardholder ${review.holderId} was not approved before the deadline`,
            );
          throw error;
        }
      }
      if (review.status === 'pass_audit') {
        enter('approved', review);
        return {
          holderId: review.holderId,
          status: 'pass_audit',
          merchantOrderNo,
          resubmissions: status.resubmissions,
        };
      }

      // reject: wait for corrected data (spec: update only when status=reject).
      enter('awaiting_correction', review);
      status.rejectReason = review.description ?? 'rejected without a description';
      await notifyParent({
        stage: 'awaiting_correction',
        holderId: review.holderId,
        statusFlowLocation: review.statusFlowLocation,
        rejectReason: status.rejectReason,
      });
      const remaining = deadlineAt - Date.now();
      if (remaining <= 0 || !(await condition(() => correction !== undefined, remaining))) {
        fail(
          FailureTypes.reviewDeadlineExceeded,
          `cardholder ${review.holderId} was rejected and no correction arrived before the deadline`,
        );
      }
      holder = correction as CardholderData;
      enter('resubmitting');
      since = inbox.position;
      const holderId = review.holderId;
      // The new round may reach the states of the last one again (a second reject): those are new events.
      inbox.beginReviewRound(holderId);
      review = await settled(() => provider.updateCardholder({ holderId, holder, correctionAt }));
      correction = undefined;
      status.resubmissions += 1;
      sent += 1;
      delete status.rejectReason;
      enter('in_review', review);
      await notifyParent({
        stage: 'in_review',
        holderId: review.holderId,
        statusFlowLocation: review.statusFlowLocation,
      });
    }
  });
}

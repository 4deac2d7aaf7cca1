/**
 * `cardholderOnboarding`: the holder's data is checked against the card type before anything
 * is sent; the holder is created with a merchantOrderNo derived from the workflow id; the
 * review (platform, then bank) is awaited; a reject waits for corrected data through the
 * validated `correctCardholder` Update and resubmits it; a deadline ends the wait. A document named
 * by a stored file is uploaded once, before the submission that first names it.
 */
import { condition, getExternalWorkflowHandle, log, patched, setHandler, workflowInfo } from '@temporalio/workflow';
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
import { documentsToUpload, withUploadedDocuments } from '../domain/holder-documents';
import { FailureTypes } from '../domain/failure-types';
import { orderNosKey } from '../domain/start-attributes';
import type { WaitProfile } from '../domain/wait-profile';
import type { CardType } from '../provider/schemas/card-type';
import { isTimeout, nonRetryable, summarize } from '../domain/failures';
import { nonCancellable } from './calls/non-cancellable';
import { EventInbox } from './events/inbox';
import { providerCallsFor, reviewWait } from './calls/profiles';
import { Attributes, isChild } from './reporting/search';
import { trackStatus, type Tracker } from './reporting/tracked-status';
import { waitForReview } from './events/waits';
import { cardholderOnboardingWorkflow } from '../domain/workflows';

/**
 * Marks a run that uploads stored identity documents. Only an input that names one makes these
 * commands, and no earlier build accepted such an input, so every earlier history replays.
 */
export const HOLDER_DOCUMENT_UPLOADS = 'holder-document-uploads';

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
  const run = new CardholderRun(input);
  return run.tracker.guard(() => run.onboard());
}

/**
 * One holder's onboarding: its status and handlers (the signal, then the query, then the Update:
 * the order the saved histories were made with), the holder data as corrected so far, and the
 * steps from the check to the approval.
 */
class CardholderRun {
  private readonly info = workflowInfo();
  private readonly provider: ReturnType<typeof providerCallsFor>;
  private readonly inbox = new EventInbox();
  private readonly attributes: Attributes;
  private readonly deadlineAt: number;
  readonly tracker: Tracker<CardholderOnboardingStatus>;
  private cardType: CardType | undefined;
  private holder: CardholderData;
  private correction: CardholderData | undefined;
  /**
   * When the pending correction was accepted: the holder changing after it is how a lost answer is
   * recognised.
   */
  private correctionAt = 0;
  /** Corrections accepted so far, and how many of them were sent. */
  private accepted = 0;
  private sent = 0;
  /** Where in the inbox the current submission's events begin. */
  private since = 0;
  /**
   * The fileId each stored document's upload returned, by reference: a document is uploaded once.
   */
  private readonly uploaded: Record<string, string> = {};

  constructor(private readonly input: CardholderOnboardingInput) {
    this.provider = providerCallsFor(input.wait);
    this.attributes = new Attributes(input.startAttributes);
    this.deadlineAt = Date.now() + (input.reviewDeadlineMs ?? DEFAULT_REVIEW_DEADLINE_MS);
    this.cardType = input.cardType;
    this.holder = input.holder;
    this.tracker = trackStatus<CardholderOnboardingStatus>(
      { stage: 'validating', resubmissions: 0, deadlineAt: this.deadlineAt },
      cardholderStatusQuery,
      this.inbox,
    );
    this.acceptCorrections();
  }

  /** The `correctCardholder` Update: validated corrected data, answered once it was sent. */
  private acceptCorrections(): void {
    const { status } = this.tracker;
    setHandler(
      correctCardholderUpdate,
      async ({ holder: corrected }) => {
        this.correction = corrected;
        this.correctionAt = Date.now();
        const mine = ++this.accepted;
        await condition(() => this.sent >= mine || status.stage === 'failed');
        return status;
      },
      {
        validator: ({ holder: corrected }) => {
          if (status.stage !== 'awaiting_correction' || this.correction !== undefined || !this.cardType) {
            throw nonRetryable(
              FailureTypes.correctionNotExpected,
              `no reject awaits correction (stage: ${status.stage})`,
            );
          }
          const problem = correctionIssues(this.cardType, this.holder, corrected, this.input.existingCards ?? 0);
          if (problem) throw nonRetryable(problem.type, problem.issues);
        },
      },
    );
  }

  /** Checks, creates, and follows the review through each reject and correction until approved. */
  async onboard(): Promise<CardholderOnboardingResult> {
    const { input, provider, attributes, inbox } = this;
    await this.validate();
    const merchantOrderNo = cardholderOnboardingWorkflow.orderKeys(this.info.workflowId).create;
    attributes.addOrderNo(merchantOrderNo);
    this.enter('submitting');
    // Events that arrive from here on belong to this submission.
    this.since = inbox.position;
    // A create or correction that may have reached the provider is recorded even if cancelled
    // meanwhile.
    const holder = await this.withDocuments(this.holder);
    let review = await nonCancellable(() =>
      provider.createCardholder({ merchantOrderNo, cardTypeId: input.cardTypeId, holder }),
    );
    this.enter('in_review', review);
    // card_holder webhooks route by CardflowOrderNos (set at start for a child) or by holderId.
    if (!isChild()) attributes.set({ holderId: review.holderId, customerRef: input.customerRef, flow: 'cardholder' });
    else if (!orderNosKey()) attributes.set({ holderId: review.holderId });
    const profile = reviewWait(input.wait);

    for (;;) {
      review = await this.decided(review, profile);
      if (review.status === 'pass_audit') {
        this.enter('approved', review);
        return {
          holderId: review.holderId,
          status: 'pass_audit',
          merchantOrderNo,
          resubmissions: this.tracker.status.resubmissions,
        };
      }
      await this.awaitCorrection(review);
      review = await this.resubmit(review);
    }
  }

  /** The holder's data and the card type's rules for holders, before anything is sent. */
  private async validate(): Promise<void> {
    const { input, tracker } = this;
    const dataIssues = cardholderDataIssues(this.holder);
    if (dataIssues.length) tracker.fail(FailureTypes.invalidInput, dataIssues);
    this.cardType ??= await this.provider.getCardType({ cardTypeId: input.cardTypeId });
    const eligibility = holderEligibilityIssues(this.cardType, this.holder, {
      existingCards: input.existingCards ?? 0,
    });
    if (eligibility.length) tracker.fail(FailureTypes.notEligible, eligibility);
  }

  /**
   * The review's decision (pass_audit or reject), waited for unless it came with the submission.
   */
  private async decided(review: CardholderReview, profile: WaitProfile): Promise<CardholderReview> {
    if (review.status === 'pass_audit' || review.status === 'reject') return review;
    try {
      return await waitForReview(this.inbox, review.holderId, this.since, profile, this.deadlineAt - Date.now());
    } catch (error) {
      if (isTimeout(error))
        this.tracker.fail(
          FailureTypes.reviewDeadlineExceeded,
          `cardholder ${review.holderId} was not approved before the deadline`,
        );
      throw error;
    }
  }

  /**
   * A reject: waits for corrected data (spec: update only when status=reject) until the deadline.
   */
  private async awaitCorrection(review: CardholderReview): Promise<void> {
    const { status } = this.tracker;
    this.enter('awaiting_correction', review);
    status.rejectReason = review.description ?? 'rejected without a description';
    await this.notifyParent({
      stage: 'awaiting_correction',
      holderId: review.holderId,
      statusFlowLocation: review.statusFlowLocation,
      rejectReason: status.rejectReason,
    });
    const remaining = this.deadlineAt - Date.now();
    if (remaining <= 0 || !(await condition(() => this.correction !== undefined, remaining))) {
      this.tracker.fail(
        FailureTypes.reviewDeadlineExceeded,
        `cardholder ${review.holderId} was rejected and no correction arrived before the deadline`,
      );
    }
  }

  /** Sends the accepted correction, which starts a new review round. */
  private async resubmit(review: CardholderReview): Promise<CardholderReview> {
    const { status } = this.tracker;
    const holder = this.correction as CardholderData;
    this.holder = holder;
    this.enter('resubmitting');
    this.since = this.inbox.position;
    const holderId = review.holderId;
    // The new round may reach the states of the last one again (a second reject): those are new
    // events.
    this.inbox.beginReviewRound(holderId);
    const correctionAt = this.correctionAt;
    const sent = await this.withDocuments(holder);
    const resubmitted = await nonCancellable(() =>
      this.provider.updateCardholder({ holderId, holder: sent, correctionAt }),
    );
    this.correction = undefined;
    status.resubmissions += 1;
    this.sent += 1;
    delete status.rejectReason;
    this.enter('in_review', resubmitted);
    await this.notifyParent({
      stage: 'in_review',
      holderId: resubmitted.holderId,
      statusFlowLocation: resubmitted.statusFlowLocation,
    });
    return resubmitted;
  }

  /**
   * The holder as the provider takes it: each document named by a stored file uploaded first (the
   * activity records its fileId per workflow, so a retry or a resumed run reuses it), then named
   * by that fileId. Only references and fileIds enter the history, never a document's bytes.
   */
  private async withDocuments(holder: CardholderData): Promise<CardholderData> {
    const pending = documentsToUpload(holder).filter((d) => this.uploaded[d.ref] === undefined);
    if (pending.length && patched(HOLDER_DOCUMENT_UPLOADS)) {
      for (const { ref } of pending) {
        const { fileId } = await nonCancellable(() => this.provider.uploadStoredFile({ ref }));
        this.uploaded[ref] = fileId;
      }
    }
    return withUploadedDocuments(holder, this.uploaded);
  }

  /**
   * Moves to a stage; with a review, the status also shows the holder and where its review stands.
   */
  private enter(stage: CardholderStage, review?: CardholderReview): void {
    const { status } = this.tracker;
    this.tracker.enter(stage);
    if (review) {
      status.holderId = review.holderId;
      status.status = review.status;
      status.statusFlowLocation = review.statusFlowLocation;
    }
  }

  private async notifyParent(progress: CardholderProgress): Promise<void> {
    const { parent } = this.info;
    if (!this.input.notifyParent || !parent) return;
    try {
      await getExternalWorkflowHandle(parent.workflowId, parent.runId).signal(cardholderProgressSignal, progress);
    } catch (error) {
      log.warn('could not tell the parent about cardholder progress', { error: summarize(error).message });
    }
  }
}

/**
 * `customerOnboarding`, started by a backend with id `onboarding-<customerRef>`: validates the
 * whole request before anything is sent (onboarding/validation.ts), then runs cardholder →
 * (shared-account transfer) → card → (physical: delivery, activation) → first deposit as children
 * whose ids derive from its own. The `progress` query reports the stage; the result says what was
 * made. Money moved and not used goes back, or is named where it stays
 * (onboarding/compensation.ts).
 * The stages are functions of the run (onboarding/run.ts, stages.ts, first-deposit.ts, result.ts);
 * this function registers the handlers, validates, and calls them in order. Its cost in actions:
 * docs/architecture.md; its replay rules (pinned, per build): docs/versioning.md.
 */
import { isCancellation, setHandler, workflowInfo } from '@temporalio/workflow';
import { NotificationTypes } from '../domain/notifications';
import type { OnboardingInput, OnboardingProgress, OnboardingResult } from '../domain/customer-onboarding';
import { providerEventSignal } from '../domain/provider-event';
import { childIdOf } from '../domain/workflow-definition';
import { cardholderOnboardingWorkflow, physicalCardActivationWorkflow } from '../domain/workflows';
import { DepositStatusTracker } from './onboarding/funding';
import { ActivationGate } from './onboarding/physical';
import { ReviewRelay } from './onboarding/review';
import { firstDepositStage } from './onboarding/first-deposit';
import { onboardingResult } from './onboarding/result';
import { chargedAccountOf, showPlan, type OnboardingRun } from './onboarding/run';
import { cardholderStage, cardStage, physicalStage, sharedAccountStage } from './onboarding/stages';
import { OnboardingTracker } from './onboarding/tracker';
import { validateOnboarding } from './onboarding/validation';
import { summarize } from '../domain/failures';
import { Notifier } from './reporting/notifier';
import { compensatedFailure, Saga } from './compensation/saga';
import { Attributes, startedWithAttributes } from './reporting/search';

export async function customerOnboarding(input: OnboardingInput): Promise<OnboardingResult> {
  const info = workflowInfo();
  const progress: OnboardingProgress = {
    customerRef: input.customerRef,
    stage: 'validating',
    stages: [{ stage: 'validating', at: Date.now() }],
    ...(input.resume ? { resumedFrom: input.resume.previousRunId } : {}),
  };
  const activationId = childIdOf(physicalCardActivationWorkflow, info.workflowId);
  // Started in cardholder_review (this build's client: domain/start-attributes.ts), the run takes
  // the 10-action path: what the starter set is not upserted again, nor is creating_card. Any
  // other start (validating: an earlier client, another language's, a resume) takes the stages
  // as runs always took them. Decided by the started event alone, so the histories of runs opened
  // before this build (unversioned ones move to the first version: docs/versioning.md) replay.
  const started = startedWithAttributes();
  const leanStart = started.stage === 'cardholder_review';
  const attributes = new Attributes(leanStart ? started : {});
  const tracker = new OnboardingTracker(progress, attributes);
  // Only wallet deposits reach the onboarding itself (the route of the address it prepared): they
  // update progress.
  const deposits = new DepositStatusTracker(progress);
  setHandler(providerEventSignal, (event) => deposits.onEvent(event));
  const gate = new ActivationGate(activationId, (request) => {
    progress.activation = { workflowId: activationId, route: request.route };
  });
  const review = new ReviewRelay(childIdOf(cardholderOnboardingWorkflow, info.workflowId), tracker);

  const saga = new Saga(input.customerRef);
  // Stage changes and the result, told to the merchant's backend when the worker has a URL.
  const notifier = new Notifier();
  const { customerRef } = input;
  tracker.onStage = (stage, previousStage) =>
    notifier.emit(NotificationTypes.onboardingStageChanged, { customerRef, stage, previousStage });

  try {
    const result = await onboard();
    notifier.emit(NotificationTypes.onboardingCompleted, {
      customerRef,
      cardTypeId: result.cardTypeId,
      ...(result.cardholder ? { holderId: result.cardholder.holderId } : {}),
      cardNo: result.card.cardNo,
      cardStatus: result.card.cardStatus,
    });
    await notifier.flush();
    return result;
  } catch (error) {
    const { cancellation, failure } = progress;
    if (isCancellation(error))
      notifier.emit(NotificationTypes.onboardingCancelled, {
        customerRef,
        stage: cancellation?.stage ?? progress.stage,
        ...(cancellation?.pending ? { pending: cancellation.pending } : {}),
      });
    else
      notifier.emit(NotificationTypes.onboardingFailed, {
        customerRef,
        stage: [...progress.stages].reverse().find((s) => s.stage !== 'failed')?.stage ?? progress.stage,
        failure: failure ?? summarize(error),
      });
    await notifier.flush();
    throw error;
  }

  // What moved money is undone (or named) when a later step fails for good or an operator cancels.
  function onboard(): Promise<OnboardingResult> {
    return tracker.guard(() =>
      saga.compensating(
        async () => {
          // The whole request, before anything is sent.
          const validated = await validateOnboarding(input, tracker.fail, notifier);
          const run: OnboardingRun = {
            ...validated,
            input,
            workflowId: info.workflowId,
            tracker,
            attributes,
            gate,
            review,
            deposits,
            chargedAccountId: chargedAccountOf(input, validated.plan),
            saga,
          };
          showPlan(run);
          const cardholder = await cardholderStage(run);
          const holderId = cardholder?.holderId;
          const topUpMerchantOrderNo = await sharedAccountStage(run, holderId);
          // On the 10-action path creating_card is not upserted.
          const card = await cardStage(run, holderId, !leanStart);
          const activation = await physicalStage(run, card.cardNo);
          const firstDeposit = await firstDepositStage(run, card.cardNo);
          tracker.enterStage('completed', true, { cardNo: card.cardNo });
          return onboardingResult(run, { ...firstDeposit, cardholder, topUpMerchantOrderNo, card, activation });
        },
        (outcome, error) => compensatedFailure(progress, outcome, error),
      ),
    );
  }
}

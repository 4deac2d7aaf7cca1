/**
 * The stages of `customerOnboarding` up to its card's activation, each a function of the run
 * (onboarding/run.ts): it enters its stage through the onboarding's tracker (which upserts it),
 * runs its child inside `step` (whose failure becomes the onboarding's) and returns what the next
 * stages and the result need. A stage the plan does not ask for sends nothing. The first deposit
 * is onboarding/first-deposit.ts.
 */
import type { CardIssuanceResult } from '../../domain/card-issuance';
import type { OnboardingResult } from '../../domain/customer-onboarding';
import { FailureTypes } from '../../domain/failure-types';
import { DEFAULT_DELIVERY_DEADLINE_MS } from '../../domain/onboarding-physical';
import type { PhysicalCardActivationResult } from '../../domain/physical-card-activation';
import { childIdOf } from '../../domain/workflow-definition';
import { cardholderOnboardingWorkflow, cardIssuanceWorkflow, fundTransferWorkflow } from '../../domain/workflows';
import { runChild } from '../calls/children';
import { compensateTransfer, recordCardKeeps, transferRound } from './compensation';
import { transferToSharedAccount } from './funding';
import { runActivation } from './physical';
import { asChild, childCommon, type OnboardingRun } from './run';

/**
 * The cardholder: created and reviewed by its child (corrections go there), or the reviewed one the
 * input names.
 */
export async function cardholderStage(run: OnboardingRun): Promise<OnboardingResult['cardholder']> {
  const { input, plan, cardType, tracker } = run;
  const holderData = input.holder;
  if (!(plan.needsHolder && holderData))
    return input.holderId ? { holderId: input.holderId, created: false, resubmissions: 0 } : undefined;
  const progress = tracker.status;
  progress.review = { correctionWorkflowId: run.review.cardholderWorkflowId };
  tracker.enterStage('cardholder_review');
  const result = await tracker.step(() =>
    runChild(
      cardholderOnboardingWorkflow,
      {
        cardTypeId: cardType.cardTypeId,
        cardType,
        holder: holderData,
        notifyParent: true,
        ...(input.reviewDeadlineMs ? { reviewDeadlineMs: input.reviewDeadlineMs } : {}),
        ...childCommon(run),
      },
      asChild(run),
    ),
  );
  delete progress.review;
  return { holderId: result.holderId, created: true, resubmissions: result.resubmissions };
}

/**
 * shared_account: the MARGIN account the card is charged to receives the money first; its
 * merchantOrderNo.
 */
export async function sharedAccountStage(
  run: OnboardingRun,
  holderId: string | undefined,
): Promise<string | undefined> {
  const { input, tracker, transfer } = run;
  const { funding } = run.plan;
  if (funding.source !== 'shared_account' || !transfer) return undefined;
  const progress = tracker.status;
  const round = transferRound(run);
  const transferId = childIdOf(fundTransferWorkflow, run.workflowId, round.step);
  progress.funding = { ...progress.funding, source: funding.source, transferWorkflowId: transferId };
  tracker.enterStage('transferring', true, { holderId });
  const moved = await tracker.step(() =>
    transferToSharedAccount({
      customerRef: input.customerRef,
      accountId: funding.accountId,
      ...transfer,
      ...(round.amount ? { amount: round.amount } : {}),
      step: round.step,
      wait: input.wait,
    }),
  );
  compensateTransfer(run, moved, round.step);
  return moved.merchantOrderNo;
}

/**
 * The card, with the initial deposit when the card type takes it at creation, and the printed
 * number of a physical card. `upsert` false: the stage is not upserted (seconds; the card child
 * shows it) and holderId goes with the next upsert.
 */
export async function cardStage(
  run: OnboardingRun,
  holderId: string | undefined,
  upsert: boolean,
): Promise<CardIssuanceResult> {
  const { input, plan, cardType, tracker, chargedAccountId } = run;
  tracker.enterStage('creating_card', upsert, { holderId });
  const card = await tracker.step(() =>
    runChild(
      cardIssuanceWorkflow,
      {
        cardTypeId: cardType.cardTypeId,
        cardType,
        ...(holderId ? { holderId } : {}),
        ...(plan.depositAtCreation && input.initialDeposit ? { initialDeposit: input.initialDeposit } : {}),
        ...(plan.physical && input.cardNumber ? { cardNumber: input.cardNumber } : {}),
        ...(chargedAccountId ? { accountId: chargedAccountId } : {}),
        ...(run.legacyTopUp && input.budgetTopUp ? { budgetTopUp: input.budgetTopUp } : {}),
        ...childCommon(run),
      },
      asChild(run),
    ),
  );
  recordCardKeeps(run, card.cardNo);
  return card;
}

/**
 * Physical card: waits until it reached the customer (the activateCard Update, unless the input had
 * it), then activates it.
 */
export async function physicalStage(
  run: OnboardingRun,
  cardNo: string,
): Promise<PhysicalCardActivationResult | undefined> {
  const { input, tracker } = run;
  if (!run.plan.physical) return undefined;
  if (!input.activation) await awaitDelivery(run, cardNo);
  const request = input.activation ?? run.gate.request;
  if (!request) return tracker.fail(FailureTypes.activationNotExpected, 'no activation request');
  tracker.enterStage('activating', true, { cardNo });
  return tracker.step(() => runActivation({ cardNo, request, customerRef: input.customerRef, wait: input.wait }));
}

/**
 * The wait for the activateCard Update, up to the delivery deadline; past it the onboarding fails
 * and the card stays un_activated.
 */
async function awaitDelivery(run: OnboardingRun, cardNo: string): Promise<void> {
  const { input, tracker } = run;
  const progress = tracker.status;
  const deadlineMs = input.deliveryDeadlineMs ?? DEFAULT_DELIVERY_DEADLINE_MS;
  progress.activation = {
    ...progress.activation,
    workflowId: run.gate.activationWorkflowId,
    deadlineAt: Date.now() + deadlineMs,
  };
  tracker.enterStage('awaiting_delivery', true, { cardNo });
  if (!(await run.gate.arrived(deadlineMs))) {
    tracker.fail(
      FailureTypes.deliveryDeadlineExceeded,
      `no activateCard request within ${Math.round(deadlineMs / 1000)} s of creating card ${cardNo}; it stays un_activated`,
    );
  }
  delete progress.activation?.deadlineAt;
}

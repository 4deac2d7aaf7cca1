/**
 * `cardReissue` (domain/card-reissue.ts): the card that replaces `oldCardNo`. Checks the request
 * against the card type before anything is sent, makes the card (`cardIssuance` child, which also
 * starts the new card's own workflow), runs a physical card's delivery wait and activation as an
 * onboarding does (the `activateCard` Update, then `physicalCardActivation`), and freezes the old
 * card once the new one is active (or first, with `freezeOld: 'now'`) through the old card's
 * workflow. What became of the old card is part of the result: a card already frozen, blocked or
 * cancelled is reported, not frozen again.
 */
import { proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { CardflowActivities } from '../activities';
import {
  cardReissueStatusQuery,
  replacedCardRequestId,
  type CardReissueInput,
  type CardReissueResult,
  type CardReissueStatus,
  type ReplacedCardOutcome,
} from '../domain/card-reissue';
import type { FieldIssue } from '../domain/cardholder-data';
import { FailureTypes } from '../domain/failure-types';
import { DEFAULT_DELIVERY_DEADLINE_MS, physicalCardIssues } from '../domain/onboarding-physical';
import type { PhysicalCardActivationResult } from '../domain/physical-card-activation';
import { childIdOf } from '../domain/workflow-definition';
import { cardIssuanceWorkflow, physicalCardActivationWorkflow } from '../domain/workflows';
import { ActivationGate } from './onboarding/physical';
import { runChild } from './calls/children';
import { NON_RETRYABLE_TYPES, providerCallsFor } from './calls/profiles';
import { Attributes, isChild } from './reporting/search';
import { trackStatus } from './reporting/tracked-status';

/**
 * The old card's freeze: an Update on its workflow that waits for the Freeze record (seconds, or
 * the card operation's whole wait when the provider is slow), heartbeating meanwhile. Retried
 * while Temporal or the old card's workflow cannot be reached; its answer is keyed by requestId.
 */
export const REPLACED_CARD_FREEZE: ActivityOptions = {
  startToCloseTimeout: '15m',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', maximumInterval: '1m', nonRetryableErrorTypes: NON_RETRYABLE_TYPES },
};

const replacement = proxyActivities<CardflowActivities>(REPLACED_CARD_FREEZE);

export async function cardReissue(input: CardReissueInput): Promise<CardReissueResult> {
  const { workflowId } = workflowInfo();
  const status: CardReissueStatus = { stage: 'validating', oldCardNo: input.oldCardNo };
  const tracker = trackStatus(status, cardReissueStatusQuery);
  const { enter, fail, step } = tracker;
  const provider = providerCallsFor(input.wait);
  const attributes = new Attributes(input.startAttributes);
  const customer = input.customerRef ? { customerRef: input.customerRef } : {};
  const gate = new ActivationGate(
    childIdOf(physicalCardActivationWorkflow, workflowId),
    () => (status.activation = { workflowId: gate.activationWorkflowId }),
    'reissue',
  );

  const freezeOld = async (): Promise<ReplacedCardOutcome> => {
    enter('freezing_old_card');
    const outcome = await step(() =>
      replacement.freezeReplacedCard({ cardNo: input.oldCardNo, requestId: replacedCardRequestId(input.oldCardNo) }),
    );
    status.oldCard = outcome;
    return outcome;
  };

  return tracker.guard(async () => {
    const cardType = await provider.getCardType({ cardTypeId: input.cardTypeId });
    const physical = cardType.type === 'Physical';
    const issues: FieldIssue[] = physicalCardIssues(cardType, input);
    if (issues.length) fail(FailureTypes.invalidInput, issues);
    if (physical && !input.activation) gate.expect();

    let oldCard = input.freezeOld === 'now' ? await freezeOld() : undefined;
    enter('issuing');
    const card = await step(() =>
      runChild(
        cardIssuanceWorkflow,
        {
          cardTypeId: cardType.cardTypeId,
          cardType,
          ...(input.holderId ? { holderId: input.holderId } : {}),
          ...(input.initialDeposit ? { initialDeposit: input.initialDeposit } : {}),
          ...(input.cardNumber ? { cardNumber: input.cardNumber } : {}),
          ...customer,
          ...(input.wait ? { wait: input.wait } : {}),
        },
        customer,
      ),
    );
    status.cardNo = card.cardNo;
    status.cardStatus = card.cardStatus;
    if (!isChild()) attributes.set({ cardNo: card.cardNo, customerRef: input.customerRef, flow: 'card_reissue' });

    let activation: PhysicalCardActivationResult | undefined;
    if (physical) {
      const request = input.activation ?? (await delivered(card.cardNo));
      if (request) {
        enter('activating');
        activation = await step(() =>
          runChild(
            physicalCardActivationWorkflow,
            request.route === 'activation_code'
              ? {
                  cardNo: card.cardNo,
                  route: request.route,
                  sealedPin: request.sealedPin,
                  ...(request.noPinPaymentAmount === undefined
                    ? {}
                    : { noPinPaymentAmount: request.noPinPaymentAmount }),
                  ...customer,
                  ...(input.wait ? { wait: input.wait } : {}),
                }
              : {
                  cardNo: card.cardNo,
                  route: request.route,
                  workOrder: request.workOrder,
                  ...customer,
                  ...(input.wait ? { wait: input.wait } : {}),
                },
            customer,
          ),
        );
      }
      status.cardStatus = 'Normal';
    }
    oldCard ??= await freezeOld();
    enter('completed');
    return { oldCardNo: input.oldCardNo, card, ...(activation ? { activation } : {}), oldCard };
  });

  /**
   * Waits for the `activateCard` Update up to the delivery deadline. Past it, a card activated
   * some other way (its own activation workflow, a work order) counts as active; otherwise the
   * reissue fails and the old card is left as it is.
   */
  async function delivered(cardNo: string) {
    const deadlineMs = input.deliveryDeadlineMs ?? DEFAULT_DELIVERY_DEADLINE_MS;
    status.activation = { workflowId: gate.activationWorkflowId, deadlineAt: Date.now() + deadlineMs };
    enter('awaiting_delivery');
    if (await gate.arrived(deadlineMs)) {
      delete status.activation.deadlineAt;
      return gate.request;
    }
    const now = await provider.getCardStatus({ cardNo });
    if (now.status === 'Normal') return undefined;
    return fail(
      FailureTypes.deliveryDeadlineExceeded,
      `no activateCard request within ${Math.round(deadlineMs / 1000)} s of creating card ${cardNo} (it is ${now.status}); card ${input.oldCardNo} was not frozen`,
    );
  }
}

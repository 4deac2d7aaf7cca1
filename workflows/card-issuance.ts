/**
 * `cardIssuance`: checks the request against the card type (holder, initial deposit bounds,
 * BUDGET_CARD top-up) before anything is sent, optionally tops up the charged account, creates
 * the card with a merchantOrderNo derived from the workflow id, waits for the create operation
 * to succeed (webhook first, polling as fallback) and reads card info without sensitive data
 * (createCard's answer carries it when the card was made within the activity's attempt).
 */
import { workflowInfo } from '@temporalio/workflow';
import { cardIssuanceStatusQuery, type CardIssuanceInput, type CardIssuanceResult } from '../domain/card-issuance';
import type { FieldIssue } from '../domain/cardholder-data';
import { planCardCreation } from '../domain/eligibility';
import { FailureTypes } from '../domain/failure-types';
import { physicalCardIssues } from '../domain/onboarding-physical';
import { nonCancellable } from './calls/non-cancellable';
import { withCardTypePlan } from './calls/card-type-plan';
import { cardOperationWait } from './calls/profiles';
import { isChild } from './reporting/search';
import { waitForCardOperationSuccess } from './events/waits';
import { cardIssuanceWorkflow } from '../domain/workflows';

export async function cardIssuance(input: CardIssuanceInput): Promise<CardIssuanceResult> {
  const orderKeys = cardIssuanceWorkflow.orderKeys(workflowInfo().workflowId);
  return withCardTypePlan(
    input,
    { stage: 'validating' },
    cardIssuanceStatusQuery,
    (cardType) => planCardCreation(cardType, input.initialDeposit),
    async ({ provider, inbox, attributes, tracker: { status, enter, fail }, cardType, plan }) => {
      const issues: FieldIssue[] = [];
      if (cardType.needCardHolder && !input.holderId)
        issues.push({ path: 'holderId', message: `is required by card type ${cardType.cardTypeId} (needCardHolder)` });
      issues.push(...physicalCardIssues(cardType, { cardNumber: input.cardNumber }));
      if (input.budgetTopUp && cardType.mode !== 'BUDGET_CARD') {
        issues.push({
          path: 'budgetTopUp',
          message: `applies to shared card (BUDGET_CARD) mode; card type ${cardType.cardTypeId} is ${cardType.mode}`,
        });
      }
      if (issues.length) fail(FailureTypes.invalidInput, issues);

      // Once the provider may have it, the mutation is followed to its outcome even if cancelled.
      return await nonCancellable(async () => {
        let topUpMerchantOrderNo: string | undefined;
        if (input.budgetTopUp) {
          enter('topping_up');
          topUpMerchantOrderNo = orderKeys.budgetTopUp;
          await provider.transferFunds({
            merchantOrderNo: topUpMerchantOrderNo,
            type: 'TRANSFER',
            ...input.budgetTopUp,
          });
        }
        const accountId = input.accountId ?? input.budgetTopUp?.payeeAccountId;

        const merchantOrderNo = orderKeys.create;
        status.merchantOrderNo = merchantOrderNo;
        attributes.addOrderNo(merchantOrderNo);
        enter('creating');
        const created = await provider.createCard({
          merchantOrderNo,
          cardTypeId: cardType.cardTypeId,
          amount: plan.amount,
          ...(input.holderId ? { holderId: input.holderId } : {}),
          ...(accountId ? { accountId } : {}),
          ...(input.cardNumber ? { cardNumber: input.cardNumber } : {}),
          // The card's own workflow, started by the activity, starts as a client's call would start
          // it.
          ...(input.customerRef || input.wait ? { follow: { customerRef: input.customerRef, wait: input.wait } } : {}),
          required: { ...(accountId ? { accountId } : {}), total: plan.total, currency: plan.currency },
          settleMs: cardOperationWait(input.wait).firstPollMs,
        });
        status.operationStatus = created.status;
        if (created.cardNo) status.cardNo = created.cardNo;

        enter('awaiting_creation');
        const operation = await waitForCardOperationSuccess(
          inbox,
          created,
          cardOperationWait(input.wait),
          `card creation ${merchantOrderNo}`,
          { record: (record) => (status.operationStatus = record.status), fail },
        );
        const cardNo = operation.cardNo ?? created.cardNo;
        if (!cardNo)
          return fail(FailureTypes.operationFailed, `card creation ${merchantOrderNo} succeeded without a cardNo`);
        status.cardNo = cardNo;
        // A child's parent records the card number; standalone, this workflow does.
        if (!isChild()) attributes.set({ cardNo, customerRef: input.customerRef, flow: 'card_issuance' });

        // createCard reads the card when the card is made within its attempt (one activity less);
        // otherwise, and in histories from before it did, the card is read here.
        let card = created.card?.cardNo === cardNo ? created.card : undefined;
        if (!card) {
          enter('reading_card');
          card = await provider.getCardSummary({ cardNo });
        }
        enter('completed');
        return {
          cardNo,
          cardStatus: card.status,
          cardTypeId: cardType.cardTypeId,
          ...(input.holderId ? { holderId: input.holderId } : {}),
          merchantOrderNo,
          orderNo: operation.orderNo,
          initialDeposit: { amount: operation.amount || plan.amount, fee: operation.fee || plan.depositFee },
          ...(topUpMerchantOrderNo ? { topUpMerchantOrderNo } : {}),
          ...(card.balance ? { balance: card.balance } : {}),
        };
      });
    },
  );
}

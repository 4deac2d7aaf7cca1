/**
 * `cardDeposit`: amount within rechargeMin/MaxQuota and the exact fee computed first; the
 * paying account's balance is checked before the deposit is sent with a merchantOrderNo derived
 * from the workflow id; then the deposit operation is awaited (webhook first, polling fallback).
 */
import { workflowInfo } from '@temporalio/workflow';
import { cardDepositStatusQuery, type CardDepositInput, type CardDepositResult } from '../domain/card-deposit';
import { planCardDeposit } from '../domain/eligibility';
import { nonCancellable } from './calls/non-cancellable';
import { withCardTypePlan } from './calls/card-type-plan';
import { cardOperationWait } from './calls/profiles';
import { isChild } from './reporting/search';
import { waitForCardOperationSuccess } from './events/waits';
import { cardDepositWorkflow } from '../domain/workflows';

export async function cardDeposit(input: CardDepositInput): Promise<CardDepositResult> {
  const info = workflowInfo();
  return withCardTypePlan(
    input,
    { stage: 'validating' },
    cardDepositStatusQuery,
    (cardType) => planCardDeposit(cardType, input.amount),
    async ({ provider, inbox, attributes, tracker: { status, enter, fail }, plan }) => {
      status.fee = plan.fee;

      const merchantOrderNo = cardDepositWorkflow.orderKeys(info.workflowId).deposit;
      status.merchantOrderNo = merchantOrderNo;
      attributes.addOrderNo(merchantOrderNo);
      if (!isChild()) attributes.set({ cardNo: input.cardNo, customerRef: input.customerRef, flow: 'card_deposit' });
      // Once the provider may have it, the mutation is followed to its outcome even if cancelled.
      return await nonCancellable(async () => {
        enter('depositing');
        const sent = await provider.depositCard({
          merchantOrderNo,
          cardNo: input.cardNo,
          amount: plan.amount,
          required: {
            ...(input.accountId ? { accountId: input.accountId } : {}),
            total: plan.total,
            currency: plan.currency,
          },
          settleMs: cardOperationWait(input.wait).firstPollMs,
        });
        status.operationStatus = sent.status;

        enter('awaiting_deposit');
        const operation = await waitForCardOperationSuccess(
          inbox,
          sent,
          cardOperationWait(input.wait),
          `deposit ${merchantOrderNo}`,
          { record: (record) => (status.operationStatus = record.status), fail },
        );
        // depositCard reads the card when the deposit succeeds within its attempt (one activity
        // less); otherwise, and in histories from before it did, the card is read here.
        const card =
          sent.card?.cardNo === input.cardNo ? sent.card : await provider.getCardSummary({ cardNo: input.cardNo });
        enter('completed');
        return {
          cardNo: input.cardNo,
          merchantOrderNo,
          orderNo: operation.orderNo,
          amount: plan.amount,
          fee: operation.fee || plan.fee,
          ...(operation.receivedAmount ? { receivedAmount: operation.receivedAmount } : {}),
          currency: operation.currency || plan.currency,
          ...(card.balance ? { balance: card.balance } : {}),
        };
      });
    },
  );
}

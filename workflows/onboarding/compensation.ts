/**
 * What undoes the onboarding's money-moving steps (workflows/compensation/saga.ts): the
 * shared-account transfer is undone by a COLLECTION of what it left unspent in the MARGIN account
 * (compensation/transfer-return.ts); a created card keeps its money, since the provider has no card
 * withdraw, and the record says so.
 */
import { cmp } from '../../provider/money';
import type { FundTransferResult } from '../../domain/fund-transfer';
import type { MoneyLeft } from '../../domain/compensation';
import { childIdOf } from '../../domain/workflow-definition';
import { cardDepositWorkflow, cardIssuanceWorkflow } from '../../domain/workflows';
import { providerCallsFor } from '../calls/profiles';
import type { Undone } from '../compensation/saga';
import { returnUnspentTransfer } from '../compensation/transfer-return';
import type { OnboardingRun } from './run';

/**
 * The step of the shared-account transfer: `transfer`, or, on a resumed run whose earlier run
 * returned the money, one keyed by the run that returned it, so the money is moved again under a
 * new merchantOrderNo rather than found already moved; then only what was returned, the part the
 * card had not used.
 */
export function transferRound(run: Pick<OnboardingRun, 'input'>): { step: string; amount?: string } {
  const returned = run.input.resume?.returned;
  return returned ? { step: `transfer.${returned.runId}`, amount: returned.amount } : { step: 'transfer' };
}

/**
 * Registers the return of what the shared-account transfer `moved` leaves unspent in the MARGIN
 * account.
 */
export function compensateTransfer(run: OnboardingRun, moved: FundTransferResult, step: string): void {
  returnUnspentTransfer(run.saga, {
    moved,
    step,
    // The card operations this onboarding charged to the MARGIN account spent part of it.
    chargedBy: [
      cardIssuanceWorkflow.orderKeys(childIdOf(cardIssuanceWorkflow, run.workflowId)).create,
      cardDepositWorkflow.orderKeys(childIdOf(cardDepositWorkflow, run.workflowId)).deposit,
    ],
    customerRef: run.input.customerRef,
    wait: run.input.wait,
  });
}

/**
 * Registers the record of what a created card holds: the provider has no card withdraw, so it stays
 * there.
 */
export function recordCardKeeps(run: OnboardingRun, cardNo: string): void {
  run.saga.add(
    `card ${cardNo}`,
    async (): Promise<Undone> => {
      const card = await providerCallsFor(run.input.wait).getCardSummary({ cardNo });
      const balance = card.balance;
      if (!balance || cmp(balance.amount, '0') <= 0) return {};
      const keeps: MoneyLeft = {
        where: 'card',
        account: cardNo,
        amount: balance.amount,
        currency: balance.currency,
        why: 'the card keeps its balance: the provider has no card withdraw',
      };
      return { remaining: [keeps] };
    },
    () => [],
  );
}

/**
 * What undoes the onboarding's money-moving steps (workflows/support/saga.ts): the shared-account
 * transfer is undone by a COLLECTION of what it left unspent in the MARGIN account (read at the
 * provider, never assumed), as a `fundTransfer` child with its own id and so its own
 * merchantOrderNo (a lost answer is looked up, never resent); a created card keeps its money,
 * since the provider has no card withdraw, and the record says so.
 */
import { cmp } from '../../api/money';
import type { FundTransferResult } from '../../domain/fund-transfer';
import type { MoneyLeft, MoneyReturned } from '../../domain/compensation';
import { childIdOf } from '../../domain/workflow-definition';
import { cardDepositWorkflow, cardIssuanceWorkflow, fundTransferWorkflow } from '../../domain/workflows';
import { runChild } from '../support/children';
import { providerCallsFor } from '../support/profiles';
import type { Undone } from '../support/saga';
import { asChild, childCommon, type OnboardingRun } from './run';

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

/** Registers the return of what the shared-account transfer `moved` leaves unspent in the MARGIN account. */
export function compensateTransfer(run: OnboardingRun, moved: FundTransferResult, step: string): void {
  const margin = moved.payee.accountId;
  const wallet = moved.payer.accountId;
  const leftInMargin = (amount: string): MoneyLeft => ({
    where: 'MARGIN',
    account: margin,
    amount,
    currency: moved.currency,
    why: 'the shared-account transfer was not returned',
  });
  // What stays in the MARGIN account if the return fails: all the transfer brought, until read.
  let unspent = moved.amount;
  run.saga.add(
    `the transfer ${moved.merchantOrderNo}`,
    async (): Promise<Undone> => {
      const provider = providerCallsFor(run.input.wait);
      // The card operations this onboarding charged to the MARGIN account spent part of it.
      const chargedBy = [
        cardIssuanceWorkflow.orderKeys(childIdOf(cardIssuanceWorkflow, run.workflowId)).create,
        cardDepositWorkflow.orderKeys(childIdOf(cardDepositWorkflow, run.workflowId)).deposit,
      ];
      const left = await provider.unspentOfTransfer({
        merchantOrderNo: moved.merchantOrderNo,
        payerAccountId: wallet,
        accountId: margin,
        chargedBy,
      });
      unspent = left.unspent;
      if (cmp(unspent, '0') <= 0) return {};
      const collected = await runChild(
        fundTransferWorkflow,
        {
          type: 'COLLECTION',
          amount: unspent,
          payerAccountId: margin,
          payeeAccountId: wallet,
          ...childCommon(run),
        },
        { ...asChild(run), suffix: `${step}.return` },
      );
      const returned: MoneyReturned = {
        fromAccountId: margin,
        toAccountId: wallet,
        amount: collected.amount,
        currency: collected.currency,
        merchantOrderNo: collected.merchantOrderNo,
      };
      return { returned };
    },
    () => [leftInMargin(unspent)],
  );
}

/** Registers the record of what a created card holds: the provider has no card withdraw, so it stays there. */
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

/**
 * The onboarding's first deposit after card creation, when its plan has one: a `cardDeposit`
 * child charging the paying account, or (on_chain) the wait for the customer's deposit to the
 * merchant's address, which its `walletFunding` child puts on the card.
 */
import type { DepositAddress } from '../../activities';
import type { CardDepositResult } from '../../domain/card-deposit';
import type { OnChainFunding } from '../../domain/onboarding-funding';
import { DEPOSIT_CLOCK_SKEW_MS, type WalletFundingResult } from '../../domain/wallet-funding';
import { childIdOf } from '../../domain/workflow-definition';
import { cardDepositWorkflow, walletFundingWorkflow } from '../../domain/workflows';
import { runChild } from '../calls/children';
import { runOnChainFunding } from './funding';
import { asChild, childCommon, type OnboardingRun } from './run';

/**
 * What the first money after creation came as: a deposit from the paying account, or the customer's
 * on-chain deposit.
 */
export interface FirstDeposit {
  deposit?: CardDepositResult;
  onChain?: WalletFundingResult;
}

/**
 * The first deposit after creation, when the plan has one: from the paying account, or the
 * customer's on-chain deposit.
 */
export async function firstDepositStage(run: OnboardingRun, cardNo: string): Promise<FirstDeposit> {
  const { funding } = run.plan;
  if (run.plan.laterDeposit) return { deposit: await laterDeposit(run, run.plan.laterDeposit.amount, cardNo) };
  if (funding.source === 'on_chain' && run.depositAddress)
    return { onChain: await onChainPayment(run, funding, run.depositAddress, cardNo) };
  return {};
}

/** A `cardDeposit` child charging the paying account. */
function laterDeposit(run: OnboardingRun, amount: string, cardNo: string): Promise<CardDepositResult> {
  const { cardType, tracker, chargedAccountId } = run;
  tracker.enterStage('funding', true, { cardNo });
  return tracker.step(() =>
    runChild(
      cardDepositWorkflow,
      {
        cardNo,
        amount,
        cardTypeId: cardType.cardTypeId,
        cardType,
        ...(chargedAccountId ? { accountId: chargedAccountId } : {}),
        ...childCommon(run),
      },
      asChild(run),
    ),
  );
}

/**
 * on_chain: shows the deposit address and waits in `awaiting_payment` for the customer's deposit
 * (a `walletFunding` child, which also deposits it on the card); progress follows the deposit's
 * webhooks meanwhile.
 */
async function onChainPayment(
  run: OnboardingRun,
  funding: OnChainFunding,
  address: DepositAddress,
  cardNo: string,
): Promise<WalletFundingResult> {
  const { input, tracker } = run;
  const progress = tracker.status;
  tracker.enterStage('awaiting_payment', true, { cardNo });
  progress.funding = {
    source: funding.source,
    workflowId: childIdOf(walletFundingWorkflow, run.workflowId),
    coinKey: address.coinKey,
    chain: address.chain,
    address: address.address,
    ...(funding.expectedAmount ? { expectedAmount: funding.expectedAmount } : {}),
    depositStatus: 'awaiting',
  };
  // A resumed run still counts the deposit the customer made for the earlier one.
  const depositSince = (input.resume?.firstStartedAt ?? Date.now()) - DEPOSIT_CLOCK_SKEW_MS;
  run.deposits.watch({
    address: address.address,
    since: depositSince,
    ...(funding.txHash ? { txHash: funding.txHash } : {}),
    ...(funding.expectedAmount ? { expectedAmount: funding.expectedAmount } : {}),
  });
  // wallet_transaction_v2 events carry no merchantOrderNo: the receiver finds this workflow by the
  // address.
  run.attributes.addOrderNo(address.address);
  const onChain = await tracker.step(() =>
    runOnChainFunding({
      customerRef: input.customerRef,
      funding,
      address: address.address,
      cardNo,
      cardTypeId: run.cardType.cardTypeId,
      wait: input.wait,
      ...(input.resume ? { depositSince } : {}),
    }),
  );
  progress.funding = {
    ...progress.funding,
    depositStatus: 'success',
    walletOrderNo: onChain.walletOrderNo,
    receivedAmount: onChain.receivedAmount,
  };
  return onChain;
}

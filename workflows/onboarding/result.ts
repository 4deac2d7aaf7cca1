/** What `customerOnboarding` returns: what its stages made. */
import type { CardIssuanceResult } from '../../domain/card-issuance';
import type { OnboardingResult } from '../../domain/customer-onboarding';
import type { PhysicalCardActivationResult } from '../../domain/physical-card-activation';
import type { FirstDeposit } from './first-deposit';
import type { OnboardingRun } from './run';

/** What the stages made, for the result. */
export interface Made extends FirstDeposit {
  cardholder: OnboardingResult['cardholder'];
  topUpMerchantOrderNo: string | undefined;
  card: CardIssuanceResult;
  activation: PhysicalCardActivationResult | undefined;
}

/** The onboarding's result: what its stages made. */
export function onboardingResult(run: OnboardingRun, made: Made): OnboardingResult {
  const { card, activation, deposit, onChain } = made;
  const balance = deposit?.balance ?? card.balance;
  const onChainDeposit = onChain?.deposit;
  const topUpMerchantOrderNo = made.topUpMerchantOrderNo ?? card.topUpMerchantOrderNo;
  return {
    customerRef: run.input.customerRef,
    cardTypeId: run.cardType.cardTypeId,
    ...(made.cardholder ? { cardholder: made.cardholder } : {}),
    card: {
      cardNo: card.cardNo,
      cardStatus: activation ? activation.cardStatus : card.cardStatus,
      merchantOrderNo: card.merchantOrderNo,
      initialDeposit: card.initialDeposit,
    },
    ...(deposit
      ? { deposit: { merchantOrderNo: deposit.merchantOrderNo, amount: deposit.amount, fee: deposit.fee } }
      : {}),
    ...(onChainDeposit ? { deposit: onChainDeposit } : {}),
    ...(topUpMerchantOrderNo ? { topUpMerchantOrderNo } : {}),
    ...(activation
      ? {
          activation: {
            route: activation.route,
            merchantOrderNo: activation.merchantOrderNo,
            ...(activation.workOrderNo ? { workOrderNo: activation.workOrderNo } : {}),
          },
        }
      : {}),
    ...(onChain
      ? {
          onChainDeposit: {
            walletOrderNo: onChain.walletOrderNo,
            address: onChain.address,
            receivedAmount: onChain.receivedAmount,
            currency: onChain.currency,
            ...(onChain.txHash ? { txHash: onChain.txHash } : {}),
          },
        }
      : {}),
    ...(balance && !onChain ? { balance } : {}),
  };
}

/**
 * `customerOnboarding`, started by a backend with id `onboarding-<customerRef>`: checks the
 * whole request (holder data and eligibility, card and deposit amounts, physical card number,
 * funding source, affordability) before anything is sent (onboarding-validation.ts), then runs
 * cardholder → (shared-account transfer) → card → (physical: delivery, activation) → first deposit
 * as child workflows with ids derived from its own. The `progress` query reports the stage; the
 * result says what was made.
 *
 * Cost: stages are upserted as search attributes only when they differ from what is set (one
 * action each, merged with the ids); what the client set at start is read from the started
 * event, and the client starts an onboarding with holder data in `cardholder_review` already
 * (domain/start-attributes.ts); children start with their attributes (free). `creating_card` is
 * never upserted: card creation takes seconds, CardflowStage keeps the stage before it, and the
 * card child (`<id>/card`, CardflowFlow card_issuance) is what runs meanwhile. The happy path
 * (B2B holder reviewed in a minute, card with its initial deposit) reaches no patch and costs 10
 * actions (bench (b)): 3 workflow starts, 4 activities (prepareOnboarding, createCardholder, the
 * review probe the webhook cancels, createCard, which also reads the card), the `completed`
 * upsert (with holderId and cardNo) and the 2 webhooks' signals.
 *
 * Replay: onboardings run pinned to the build that started them (Worker Deployments), so a
 * change of this family's commands ships as a new build that open onboardings never meet; the
 * saved histories of the build before this cost are kept in test/fixtures/histories/earlier-build/.
 *
 * Replay: the merchant-wallet path sends the same commands as before the physical and funding
 * paths existed; those paths only add commands when their input fields ask for them.
 */
import { patched, setHandler, workflowInfo } from '@temporalio/workflow';
import type { CardDepositResult } from '../domain/card-deposit';
import { cardholderProgressSignal } from '../domain/cardholder-onboarding';
import type { OnboardingInput, OnboardingProgress, OnboardingResult } from '../domain/customer-onboarding';
import { FailureTypes } from '../domain/failure-types';
import { DEFAULT_DELIVERY_DEADLINE_MS } from '../domain/onboarding-physical';
import type { PhysicalCardActivationResult } from '../domain/physical-card-activation';
import { providerEventSignal } from '../domain/provider-event';
import { DEPOSIT_CLOCK_SKEW_MS, type WalletFundingResult } from '../domain/wallet-funding';
import { childIdOf } from '../domain/workflow-definition';
import {
  cardDepositWorkflow,
  cardholderOnboardingWorkflow,
  cardIssuanceWorkflow,
  fundTransferWorkflow,
  physicalCardActivationWorkflow,
  walletFundingWorkflow,
} from '../domain/workflows';
import { failWith } from './support/failures';
import { OnboardingTracker } from './onboarding/tracker';
import { runChild } from './support/children';
import { DepositStatusTracker, runOnChainFunding, transferToSharedAccount } from './onboarding/funding';
import { ActivationGate, runActivation } from './onboarding/physical';
import { validateOnboarding } from './onboarding/validation';
import { Attributes, startedWithAttributes } from './support/search';

/** Patch: the awaiting_correction stage (and the return to review) is upserted. */
const REVIEW_STAGES_SEARCHABLE = 'review-stages-searchable';

export async function customerOnboarding(input: OnboardingInput): Promise<OnboardingResult> {
  const info = workflowInfo();
  const progress: OnboardingProgress = {
    customerRef: input.customerRef,
    stage: 'validating',
    stages: [{ stage: 'validating', at: Date.now() }],
    ...(input.resume ? { resumedFrom: input.resume.previousRunId } : {}),
  };
  const cardholderId = childIdOf(cardholderOnboardingWorkflow, info.workflowId);
  const activationId = childIdOf(physicalCardActivationWorkflow, info.workflowId);
  // Started in cardholder_review (this build's client: domain/start-attributes.ts), the run takes
  // the 10-action path: what the starter set is not upserted again, nor is creating_card. Any
  // other start (validating: an earlier client, another language's, a resume) takes the stages
  // as runs always took them. Decided by the started event alone, so the histories of runs opened
  // before this build (unversioned ones move to the first version: docs/versioning.md) replay.
  const started = startedWithAttributes();
  const leanStart = started.stage === 'cardholder_review';
  const searchAttributes = new Attributes(leanStart ? started : {});
  const tracker = new OnboardingTracker(progress, searchAttributes);
  const { fail, step, guard, enterStage: enter } = tracker;
  // Card-level webhooks routed here by CardflowCardNo are for the children; wallet deposits update progress.
  const deposits = new DepositStatusTracker(progress);
  setHandler(providerEventSignal, (event) => deposits.onEvent(event));
  const gate = new ActivationGate(activationId, (request) => {
    progress.activation = { workflowId: activationId, route: request.route };
  });
  setHandler(cardholderProgressSignal, (update) => {
    if (progress.stage !== 'cardholder_review' && progress.stage !== 'awaiting_correction') return;
    const rejectReason = update.stage === 'awaiting_correction' ? update.rejectReason : undefined;
    progress.review = {
      correctionWorkflowId: cardholderId,
      ...(update.statusFlowLocation ? { statusFlowLocation: update.statusFlowLocation } : {}),
      ...(rejectReason ? { rejectReason } : {}),
    };
    // An onboarding waiting on the customer's correction is found by its stage, like any other wait.
    enter(
      update.stage === 'awaiting_correction' ? 'awaiting_correction' : 'cardholder_review',
      patched(REVIEW_STAGES_SEARCHABLE),
    );
  });

  const onboard = async (): Promise<OnboardingResult> => {
    // 1. The whole request, before anything is sent.
    const { cardType, plan, legacyTopUp, transfer, depositAddress } = await validateOnboarding(input, fail);
    const { funding } = plan;
    const chargedAccountId = funding.source === 'shared_account' ? funding.accountId : input.accountId;
    if (funding.source !== 'merchant_wallet')
      progress.funding = {
        source: funding.source,
        ...(funding.source === 'shared_account' ? { accountId: funding.accountId } : { coinKey: funding.coinKey }),
      };
    if (plan.physical)
      progress.activation = {
        workflowId: activationId,
        ...(input.activation ? { route: input.activation.route } : {}),
      };
    if (plan.physical && !input.activation) gate.expect();

    const asChild = { customerRef: input.customerRef };
    const common = { customerRef: input.customerRef, ...(input.wait ? { wait: input.wait } : {}) };

    // 2. Cardholder.
    let holder: OnboardingResult['cardholder'];
    let holderId = input.holderId;
    const holderData = input.holder;
    if (plan.needsHolder && holderData) {
      progress.review = { correctionWorkflowId: cardholderId };
      enter('cardholder_review');
      const result = await step(() =>
        runChild(
          cardholderOnboardingWorkflow,
          {
            cardTypeId: cardType.cardTypeId,
            cardType,
            holder: holderData,
            notifyParent: true,
            ...(input.reviewDeadlineMs ? { reviewDeadlineMs: input.reviewDeadlineMs } : {}),
            ...common,
          },
          asChild,
        ),
      );
      holderId = result.holderId;
      holder = { holderId, created: true, resubmissions: result.resubmissions };
      delete progress.review;
    } else if (holderId) {
      holder = { holderId, created: false, resubmissions: 0 };
    }

    // 3. shared_account: the MARGIN account the card is charged to receives the money first.
    let topUpMerchantOrderNo: string | undefined;
    if (funding.source === 'shared_account' && transfer) {
      const transferId = childIdOf(fundTransferWorkflow, info.workflowId);
      progress.funding = { ...progress.funding, source: funding.source, transferWorkflowId: transferId };
      enter('transferring', true, { holderId });
      const moved = await step(() =>
        transferToSharedAccount({
          customerRef: input.customerRef,
          accountId: funding.accountId,
          ...transfer,
          wait: input.wait,
        }),
      );
      topUpMerchantOrderNo = moved.merchantOrderNo;
    }

    // 4. Card (with the initial deposit when the card type takes it at creation; the printed number for a physical card).
    // On the 10-action path not upserted (seconds; the card child shows it): holderId goes with the next upsert.
    enter('creating_card', !leanStart, { holderId });
    const card = await step(() =>
      runChild(
        cardIssuanceWorkflow,
        {
          cardTypeId: cardType.cardTypeId,
          cardType,
          ...(holderId ? { holderId } : {}),
          ...(plan.depositAtCreation && input.initialDeposit ? { initialDeposit: input.initialDeposit } : {}),
          ...(plan.physical && input.cardNumber ? { cardNumber: input.cardNumber } : {}),
          ...(chargedAccountId ? { accountId: chargedAccountId } : {}),
          ...(legacyTopUp && input.budgetTopUp ? { budgetTopUp: input.budgetTopUp } : {}),
          ...common,
        },
        asChild,
      ),
    );
    const cardNo = card.cardNo;

    // 5. Physical card: wait until it reached the customer (the activateCard Update), then activate.
    let activation: PhysicalCardActivationResult | undefined;
    if (plan.physical) {
      if (!input.activation) {
        const deadlineMs = input.deliveryDeadlineMs ?? DEFAULT_DELIVERY_DEADLINE_MS;
        progress.activation = { ...progress.activation, workflowId: activationId, deadlineAt: Date.now() + deadlineMs };
        enter('awaiting_delivery', true, { cardNo });
        if (!(await gate.arrived(deadlineMs))) {
          fail(
            failWith(
              FailureTypes.deliveryDeadlineExceeded,
              `no activateCard request within ${Math.round(deadlineMs / 1000)} s of creating card ${cardNo}; it stays un_activated`,
            ),
          );
        }
        delete progress.activation?.deadlineAt;
      }
      const request = input.activation ?? gate.request;
      if (!request) return fail(failWith(FailureTypes.activationNotExpected, 'no activation request'));
      enter('activating', true, { cardNo });
      activation = await step(() =>
        runActivation({ cardNo, request, customerRef: input.customerRef, wait: input.wait }),
      );
    }

    // 6. The first deposit after creation: from the paying account, or the customer's on-chain deposit.
    let deposit: CardDepositResult | undefined;
    let onChain: WalletFundingResult | undefined;
    if (plan.laterDeposit) {
      enter('funding', true, { cardNo });
      const amount = plan.laterDeposit.amount;
      deposit = await step(() =>
        runChild(
          cardDepositWorkflow,
          {
            cardNo,
            amount,
            cardTypeId: cardType.cardTypeId,
            cardType,
            ...(chargedAccountId ? { accountId: chargedAccountId } : {}),
            ...common,
          },
          asChild,
        ),
      );
    } else if (funding.source === 'on_chain' && depositAddress) {
      const fundingId = childIdOf(walletFundingWorkflow, info.workflowId);
      const address = depositAddress;
      enter('awaiting_payment', true, { cardNo });
      progress.funding = {
        source: funding.source,
        workflowId: fundingId,
        coinKey: address.coinKey,
        chain: address.chain,
        address: address.address,
        ...(funding.expectedAmount ? { expectedAmount: funding.expectedAmount } : {}),
        depositStatus: 'awaiting',
      };
      // A resumed run still counts the deposit the customer made for the earlier one.
      const depositSince = (input.resume?.firstStartedAt ?? Date.now()) - DEPOSIT_CLOCK_SKEW_MS;
      deposits.watch({
        address: address.address,
        since: depositSince,
        ...(funding.txHash ? { txHash: funding.txHash } : {}),
        ...(funding.expectedAmount ? { expectedAmount: funding.expectedAmount } : {}),
      });
      // wallet_transaction_v2 events carry no merchantOrderNo: the receiver finds this workflow by the address.
      searchAttributes.addOrderNo(address.address);
      onChain = await step(() =>
        runOnChainFunding({
          customerRef: input.customerRef,
          funding,
          address: address.address,
          cardNo,
          cardTypeId: cardType.cardTypeId,
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
    }

    enter('completed', true, { cardNo });
    const balance = deposit?.balance ?? card.balance;
    const onChainDeposit = onChain?.deposit;
    return {
      customerRef: input.customerRef,
      cardTypeId: cardType.cardTypeId,
      ...(holder ? { cardholder: holder } : {}),
      card: {
        cardNo,
        cardStatus: activation ? activation.cardStatus : card.cardStatus,
        merchantOrderNo: card.merchantOrderNo,
        initialDeposit: card.initialDeposit,
      },
      ...(deposit
        ? { deposit: { merchantOrderNo: deposit.merchantOrderNo, amount: deposit.amount, fee: deposit.fee } }
        : {}),
      ...(onChainDeposit ? { deposit: onChainDeposit } : {}),
      ...((topUpMerchantOrderNo ?? card.topUpMerchantOrderNo)
        ? { topUpMerchantOrderNo: topUpMerchantOrderNo ?? card.topUpMerchantOrderNo }
        : {}),
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
  };

  return guard(onboard);
}

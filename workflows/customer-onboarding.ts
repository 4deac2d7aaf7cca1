/**
 * `customerOnboarding`, started by a backend with id `onboarding-<customerRef>`: checks the
 * whole request (holder data and eligibility, card and deposit amounts, affordability) before
 * anything is sent, then runs cardholder → card → initial deposit as child workflows with ids
 * derived from its own. The `progress` query reports the stage; the result says what was made.
 *
 * Cost: stages are upserted as search attributes only when they change (one action each,
 * merged with the ids); children start with their attributes (free).
 */
import { ParentClosePolicy, executeChild, setHandler, workflowInfo, type ApplicationFailure } from '@temporalio/workflow';
import { CARD_MERCHANT_ORDER_NO } from '../api/rules';
import { add } from '../api/money';
import type { CardDepositResult } from '../domain/card-deposit';
import type { CardIssuanceResult } from '../domain/card-issuance';
import { cardholderProgressSignal, type CardholderOnboardingResult } from '../domain/cardholder-onboarding';
import { cardholderDataIssues, type FieldIssue } from '../domain/cardholder-data';
import {
  OnboardingInputSchema,
  progressQuery,
  type OnboardingInput,
  type OnboardingProgress,
  type OnboardingResult,
  type OnboardingStage,
} from '../domain/customer-onboarding';
import { affordabilityIssue, holderEligibilityIssues, planCardCreation, planCardDeposit } from '../domain/eligibility';
import { FailureTypes } from '../domain/failure-types';
import { deriveMerchantOrderNo, ORDER_STEPS } from '../domain/merchant-order-no';
import { providerEventSignal } from '../domain/provider-event';
import { childStartAttributes, type StartAttributes } from '../domain/start-attributes';
import { childWorkflowId } from '../domain/workflow-ids';
import { Flows, WorkflowTypes } from '../domain/workflow-types';
import { failIssues, failWith, propagate, summarize } from './failures';
import { providerCalls } from './profiles';
import { Attributes } from './search';

export async function customerOnboarding(input: OnboardingInput): Promise<OnboardingResult> {
  const info = workflowInfo();
  const progress: OnboardingProgress = { customerRef: input.customerRef, stage: 'validating', stages: [{ stage: 'validating', at: Date.now() }] };
  const cardholderId = childWorkflowId(info.workflowId, 'cardholder');
  setHandler(progressQuery, () => progress);
  // Nothing is assumed set at start: the first upsert also carries customerRef and flow (no extra action).
  const searchAttributes = new Attributes();
  // Card-level webhooks routed here by CardflowCardNo are not needed by this workflow.
  setHandler(providerEventSignal, () => undefined);
  setHandler(cardholderProgressSignal, (update) => {
    if (progress.stage !== 'cardholder_review' && progress.stage !== 'awaiting_correction') return;
    const rejectReason = update.stage === 'awaiting_correction' ? update.rejectReason : undefined;
    progress.review = {
      correctionWorkflowId: cardholderId,
      ...(update.statusFlowLocation ? { statusFlowLocation: update.statusFlowLocation } : {}),
      ...(rejectReason ? { rejectReason } : {}),
    };
    enter(update.stage === 'awaiting_correction' ? 'awaiting_correction' : 'cardholder_review', false);
  });

  function enter(stage: OnboardingStage, upsert = true, ids: { holderId?: string; cardNo?: string } = {}) {
    if (progress.stage !== stage) progress.stages.push({ stage, at: Date.now() });
    progress.stage = stage;
    if (ids.holderId) progress.holderId = ids.holderId;
    if (ids.cardNo) progress.cardNo = ids.cardNo;
    if (upsert) searchAttributes.set({ customerRef: input.customerRef, flow: Flows.onboarding, stage, ...ids });
  }
  const fail = (failure: ApplicationFailure): never => {
    progress.failure = { type: failure.type ?? 'Error', message: failure.message };
    enter('failed');
    throw failure;
  };
  const child = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      progress.failure = summarize(error);
      enter('failed');
      return propagate(error);
    }
  };

  // 1. The whole request, before anything is sent.
  const parsed = OnboardingInputSchema.safeParse(input);
  if (!parsed.success) {
    fail(failIssues(FailureTypes.invalidInput, parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))));
  }
  if (!info.workflowId.endsWith(`-${input.customerRef}`)) {
    fail(failWith(FailureTypes.invalidInput, `customerRef: ${input.customerRef} does not match workflow id ${info.workflowId}`));
  }
  const { cardType, account } = await providerCalls.prepareOnboarding({ cardTypeId: input.cardTypeId, ...(input.accountId ? { accountId: input.accountId } : {}) });

  const issues: FieldIssue[] = [];
  const needsHolder = cardType.needCardHolder && !input.holderId;
  if (needsHolder) {
    if (!input.holder) issues.push({ path: 'holder', message: `is required by card type ${cardType.cardTypeId} (needCardHolder), or give holderId` });
    else issues.push(...cardholderDataIssues(input.holder), ...holderEligibilityIssues(cardType, input.holder));
  }
  const depositAtCreation = cardType.needDepositForActiveCard;
  const creation = planCardCreation(cardType, depositAtCreation ? input.initialDeposit : undefined);
  if ('issues' in creation) issues.push(...creation.issues);
  const laterDeposit = !depositAtCreation && input.initialDeposit !== undefined ? planCardDeposit(cardType, input.initialDeposit) : undefined;
  if (laterDeposit && 'issues' in laterDeposit) issues.push(...laterDeposit.issues.map((i) => ({ ...i, path: i.path === 'amount' ? 'initialDeposit' : i.path })));
  if (issues.length) fail(failIssues(FailureTypes.notEligible, issues));
  if ('plan' in creation && !input.budgetTopUp) {
    const total = laterDeposit && 'plan' in laterDeposit ? add(creation.plan.total, laterDeposit.plan.total) : creation.plan.total;
    const short = affordabilityIssue(account.availableBalance, total, account.currency, 'initialDeposit');
    if (short) fail(failIssues(FailureTypes.insufficientBalance, [{ ...short, message: `account ${account.accountId} ${short.message}` }]));
  }

  const startOf = (flow: (typeof Flows)[keyof typeof Flows], orderNos: string[]): StartAttributes => ({ customerRef: input.customerRef, flow, orderNos });
  const common = { customerRef: input.customerRef, ...(input.wait ? { wait: input.wait } : {}) };

  // 2. Cardholder.
  let holder: OnboardingResult['cardholder'];
  let holderId = input.holderId;
  if (needsHolder && input.holder) {
    progress.review = { correctionWorkflowId: cardholderId };
    enter('cardholder_review');
    const holderStart = startOf(Flows.cardholder, [deriveMerchantOrderNo(cardholderId, ORDER_STEPS.cardholderCreate)]);
    const result = await child(() =>
      executeChild<(arg: unknown) => Promise<CardholderOnboardingResult>>(WorkflowTypes.cardholderOnboarding, {
        workflowId: cardholderId,
        args: [
          {
            cardTypeId: cardType.cardTypeId,
            cardType,
            holder: input.holder,
            notifyParent: true,
            startAttributes: holderStart,
            ...(input.reviewDeadlineMs ? { reviewDeadlineMs: input.reviewDeadlineMs } : {}),
            ...common,
          },
        ],
        parentClosePolicy: ParentClosePolicy.TERMINATE,
        typedSearchAttributes: childStartAttributes(holderStart),
      }),
    );
    holderId = result.holderId;
    holder = { holderId, created: true, resubmissions: result.resubmissions };
    delete progress.review;
  } else if (holderId) {
    holder = { holderId, created: false, resubmissions: 0 };
  }

  // 3. Card (with the initial deposit when the card type takes it at creation).
  enter('creating_card', true, holderId ? { holderId } : {});
  const cardId = childWorkflowId(info.workflowId, 'card');
  const cardStart = startOf(Flows.cardIssuance, [deriveMerchantOrderNo(cardId, ORDER_STEPS.cardCreate, CARD_MERCHANT_ORDER_NO)]);
  const card = await child(() =>
    executeChild<(arg: unknown) => Promise<CardIssuanceResult>>(WorkflowTypes.cardIssuance, {
      workflowId: cardId,
      args: [
        {
          cardTypeId: cardType.cardTypeId,
          cardType,
          ...(holderId ? { holderId } : {}),
          ...(depositAtCreation && input.initialDeposit ? { initialDeposit: input.initialDeposit } : {}),
          ...(input.accountId ? { accountId: input.accountId } : {}),
          ...(input.budgetTopUp ? { budgetTopUp: input.budgetTopUp } : {}),
          startAttributes: cardStart,
          ...common,
        },
      ],
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      typedSearchAttributes: childStartAttributes(cardStart),
    }),
  );

  // 4. Initial deposit after creation, when the card type takes none at creation.
  let deposit: CardDepositResult | undefined;
  if (laterDeposit && 'plan' in laterDeposit) {
    enter('funding', true, { cardNo: card.cardNo });
    const depositId = childWorkflowId(info.workflowId, 'deposit');
    const depositStart = startOf(Flows.cardDeposit, [deriveMerchantOrderNo(depositId, ORDER_STEPS.cardDeposit)]);
    deposit = await child(() =>
      executeChild<(arg: unknown) => Promise<CardDepositResult>>(WorkflowTypes.cardDeposit, {
        workflowId: depositId,
        args: [
          {
            cardNo: card.cardNo,
            amount: laterDeposit.plan.amount,
            cardTypeId: cardType.cardTypeId,
            cardType,
            ...(input.accountId ? { accountId: input.accountId } : {}),
            startAttributes: depositStart,
            ...common,
          },
        ],
        parentClosePolicy: ParentClosePolicy.TERMINATE,
        typedSearchAttributes: childStartAttributes(depositStart),
      }),
    );
  }

  enter('completed', true, { cardNo: card.cardNo });
  const balance = deposit?.balance ?? card.balance;
  return {
    customerRef: input.customerRef,
    cardTypeId: cardType.cardTypeId,
    ...(holder ? { cardholder: holder } : {}),
    card: { cardNo: card.cardNo, cardStatus: card.cardStatus, merchantOrderNo: card.merchantOrderNo, initialDeposit: card.initialDeposit },
    ...(deposit ? { deposit: { merchantOrderNo: deposit.merchantOrderNo, amount: deposit.amount, fee: deposit.fee } } : {}),
    ...(card.topUpMerchantOrderNo ? { topUpMerchantOrderNo: card.topUpMerchantOrderNo } : {}),
    ...(balance ? { balance } : {}),
  };
}

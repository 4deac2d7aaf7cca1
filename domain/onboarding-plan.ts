/**
 * Everything an onboarding checks against the card type before anything is sent, as one pure
 * function the workflow and the unit tests share: the holder, the initial deposit at creation or
 * after it, the physical card fields and the funding source. Balances are checked afterwards,
 * against the accounts read for the plan.
 */
import type { CardType } from '../provider/schemas/card-type';
import { add } from '../provider/money';
import { cardholderDataIssues, type FieldIssue } from './cardholder-data';
import type { OnboardingInput } from './customer-onboarding';
import {
  holderEligibilityIssues,
  planCardCreation,
  planCardDeposit,
  type CardCreationPlan,
  type DepositPlan,
} from './eligibility';
import { fundingInputIssues, fundingOf, type OnboardingFunding } from './onboarding-funding';
import { physicalCardIssues } from './onboarding-physical';

export interface OnboardingPlan {
  /** A cardholder must be created (the card type needs one and no holderId was given). */
  needsHolder: boolean;
  /** The initial deposit goes with create card (needDepositForActiveCard). */
  depositAtCreation: boolean;
  creation: CardCreationPlan;
  /** The deposit made after creation (merchant_wallet, shared_account). */
  laterDeposit?: DepositPlan;
  /** Physical card type: un_activated after creation, activated once delivered. */
  physical: boolean;
  funding: OnboardingFunding;
  /** What the account charged for the card must cover: card fee, deposits and their fees. */
  needed: string;
}

/**
 * The plan, or the rules the input breaks (paths name the fields). A physical card's deposit
 * after creation waits for activation: money is not put on a card the customer may never receive.
 */
export function planOnboarding(
  input: OnboardingInput,
  cardType: CardType,
): { plan: OnboardingPlan } | { issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const needsHolder = cardType.needCardHolder && !input.holderId;
  if (needsHolder) {
    if (!input.holder)
      issues.push({
        path: 'holder',
        message: `is required by card type ${cardType.cardTypeId} (needCardHolder), or give holderId`,
      });
    else issues.push(...cardholderDataIssues(input.holder), ...holderEligibilityIssues(cardType, input.holder));
  }
  const funding = fundingOf(input);
  const depositAtCreation = cardType.needDepositForActiveCard;
  const creation = planCardCreation(cardType, depositAtCreation ? input.initialDeposit : undefined);
  if ('issues' in creation) issues.push(...creation.issues);

  let laterDeposit: ReturnType<typeof planCardDeposit> | undefined;
  if (funding.source === 'on_chain') {
    // The deposit after creation is the customer's on-chain credit (walletFunding's card deposit).
    if (!depositAtCreation && input.initialDeposit !== undefined) {
      issues.push({
        path: 'initialDeposit',
        message:
          'with funding.source on_chain the deposit after creation is the on-chain credit; set funding.depositAmount instead',
      });
    }
    if (!cardType.enableDeposit)
      issues.push({
        path: 'funding.source',
        message: `on_chain deposits to the card; card type ${cardType.cardTypeId} does not allow deposits (enableDeposit=false)`,
      });
    else if (funding.depositAmount !== undefined) {
      const planned = planCardDeposit(cardType, funding.depositAmount);
      if ('issues' in planned)
        issues.push(
          ...planned.issues.map((i) => ({ ...i, path: i.path === 'amount' ? 'funding.depositAmount' : i.path })),
        );
    }
  } else if (!depositAtCreation && input.initialDeposit !== undefined) {
    laterDeposit = planCardDeposit(cardType, input.initialDeposit);
    if ('issues' in laterDeposit)
      issues.push(...laterDeposit.issues.map((i) => ({ ...i, path: i.path === 'amount' ? 'initialDeposit' : i.path })));
  }
  issues.push(...physicalCardIssues(cardType, input), ...fundingInputIssues(input));
  if (issues.length || 'issues' in creation || (laterDeposit && 'issues' in laterDeposit)) return { issues };

  const later = laterDeposit && 'plan' in laterDeposit ? laterDeposit.plan : undefined;
  return {
    plan: {
      needsHolder,
      depositAtCreation,
      creation: creation.plan,
      ...(later ? { laterDeposit: later } : {}),
      physical: cardType.type === 'Physical',
      funding,
      needed: later ? add(creation.plan.total, later.total) : creation.plan.total,
    },
  };
}

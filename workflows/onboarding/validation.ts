/**
 * The first step of `customerOnboarding`: the whole request checked before anything is sent
 *: its shape, then the plan against the card type
 * (domain/onboarding-plan.ts), then the balances of the accounts that will pay.
 */
import { isCancellation, patched, workflowInfo } from '@temporalio/workflow';
import type { CardType } from '../../provider/schemas/card-type';
import { OnboardingInputSchema, type OnboardingInput } from '../../domain/customer-onboarding';
import { affordabilityIssue } from '../../domain/eligibility';
import { FailureTypes } from '../../domain/failure-types';
import { fundingOf, planSharedAccountTransfer } from '../../domain/onboarding-funding';
import { planOnboarding, type OnboardingPlan } from '../../domain/onboarding-plan';
import type { DepositAddress } from '../../activities';
import type { Notifier } from '../reporting/notifier';
import { rethrown, summarize } from '../../domain/failures';
import { providerCallsFor } from '../calls/profiles';
import type { Fail } from '../reporting/tracked-status';

/**
 * Marks onboardings that read `budgetTopUp` as shared_account funding (a `fundTransfer` child).
 * Histories from before it passed `budgetTopUp` to the card child, which transferred itself;
 * they replay on that branch.
 */
export const BUDGET_TOP_UP_AS_FUNDING = 'budget-top-up-as-shared-account-funding';

export interface ValidatedOnboarding {
  cardType: CardType;
  plan: OnboardingPlan;
  /**
   * An onboarding started before {@link BUDGET_TOP_UP_AS_FUNDING}: `budgetTopUp` goes to the card
   * child.
   */
  legacyTopUp: boolean;
  /** shared_account: the WALLET that pays and the amount moved. */
  transfer?: { payerAccountId: string; amount: string };
  /**
   * on_chain: the merchant's deposit address for the coin (shown to the customer once the card
   * exists).
   */
  depositAddress?: DepositAddress;
}

export async function validateOnboarding(
  input: OnboardingInput,
  fail: Fail,
  notifier: Pick<Notifier, 'enable'>,
): Promise<ValidatedOnboarding> {
  const info = workflowInfo();
  const provider = providerCallsFor(input.wait);
  const parsed = OnboardingInputSchema.safeParse(input);
  if (!parsed.success) {
    fail(
      FailureTypes.invalidInput,
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  if (!info.workflowId.endsWith(`-${input.customerRef}`)) {
    fail(FailureTypes.invalidInput, `customerRef: ${input.customerRef} does not match workflow id ${info.workflowId}`);
  }
  const legacyTopUp =
    input.budgetTopUp !== undefined && input.funding === undefined && !patched(BUDGET_TOP_UP_AS_FUNDING);
  const requested = fundingOf(input);
  const chargedAccountId =
    requested.source === 'shared_account' && !legacyTopUp ? requested.accountId : input.accountId;
  const { cardType, account, ...prepared } = await provider.prepareOnboarding({
    cardTypeId: input.cardTypeId,
    ...(chargedAccountId ? { accountId: chargedAccountId } : {}),
  });

  // The worker's notification plan, when it has one: a refusal from here on is told to the backend.
  notifier.enable(prepared);
  const planning = planOnboarding(input, cardType);
  if ('issues' in planning) return fail(FailureTypes.notEligible, planning.issues);
  const plan = planning.plan;
  const planned = { cardType, plan, legacyTopUp };
  if (legacyTopUp) return { ...planned, plan: { ...plan, funding: { source: 'merchant_wallet' } } };

  if (plan.funding.source === 'shared_account') {
    const { payerAccountId } = plan.funding;
    const payer = await provider.getAccountBalance({
      ...(payerAccountId ? { accountId: payerAccountId } : {}),
      currency: cardType.rechargeCurrency,
    });
    const transfer = planSharedAccountTransfer(plan.funding, plan.needed, payer, account);
    if (transfer.issues.length) fail(FailureTypes.invalidInput, transfer.issues);
    // A resumed run may have moved or spent this money already: each step checks what it still
    // needs.
    if (transfer.shortfalls.length && !input.resume) fail(FailureTypes.insufficientBalance, transfer.shortfalls);
    return { ...planned, transfer: { payerAccountId: payer.accountId, amount: transfer.amount } };
  }
  // on_chain: the merchant pays only the card (fee, and the initial deposit a card type requires at
  // creation).
  const needed = plan.funding.source === 'on_chain' ? plan.creation.total : plan.needed;
  const short = affordabilityIssue(account.availableBalance, needed, account.currency, 'initialDeposit');
  if (short && !input.resume)
    fail(FailureTypes.insufficientBalance, [{ ...short, message: `account ${account.accountId} ${short.message}` }]);
  if (plan.funding.source !== 'on_chain') return planned;
  // The coin must take deposits (spec: Coin enabled, enableDeposit) before a card is made for it.
  // Finding or creating the merchant's address moves no money and is reused by walletFunding.
  try {
    // The onboarding learnt the notification plan from prepareOnboarding already.
    const { notifications: _plan, ...depositAddress } = await provider.prepareDepositAddress({
      coinKey: plan.funding.coinKey,
    });
    return { ...planned, depositAddress };
  } catch (error) {
    if (isCancellation(error)) throw error;
    const { type, message } = summarize(error);
    return fail(rethrown({ type, message: message.startsWith('coinKey:') ? `funding.${message}` : message }));
  }
}

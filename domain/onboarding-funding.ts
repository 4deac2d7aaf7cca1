/**
 * Where an onboarding's first money comes from (input field `funding`):
 * - `merchant_wallet` (default): the merchant WALLET (or `accountId`) pays fee and deposits;
 * - `shared_account`: a WALLET → MARGIN `fundTransfer` child right before card creation, the card
 *   charged to that MARGIN account; the older field `budgetTopUp` is read as this
 *   ({@link fundingOf}), so there is one mechanism;
 * - `on_chain`: once the card exists, a `walletFunding` child waits for the customer's on-chain
 *   deposit to the merchant's `coinKey` address and deposits the credit to the card; progress
 *   shows the address, for the backend to tell the customer where to pay.
 */
import { z } from 'zod';
import { add, cmp, sub } from '../provider/money';
import type { BudgetTopUp } from './card-issuance';
import type { FieldIssue } from './cardholder-data';
import { lengthBetween } from '../provider/schemas/primitives';
import { idDigits as digits, positiveAmount } from './fields';

export const FUNDING_SOURCES = ['merchant_wallet', 'shared_account', 'on_chain'] as const;
export type FundingSource = (typeof FUNDING_SOURCES)[number];

export const MerchantWalletFundingSchema = z.object({ source: z.literal('merchant_wallet') }).strict();

export const SharedAccountFundingSchema = z
  .object({
    source: z.literal('shared_account'),
    /** The MARGIN (shared) account the card is charged to; receives the transfer. */
    accountId: digits,
    /** The paying WALLET account; default the merchant WALLET in the card's currency. */
    payerAccountId: digits.optional(),
    /** Amount moved; default exactly what the card costs (card fee + deposits + their fees). */
    amount: positiveAmount.optional(),
  })
  .strict()
  .refine((f) => f.payerAccountId === undefined || f.payerAccountId !== f.accountId, {
    path: ['payerAccountId'],
    message: 'must differ from accountId (the MARGIN account paid)',
  });

export const OnChainFundingSchema = z
  .object({
    source: z.literal('on_chain'),
    /** The coin the customer pays in (spec: Coin coinKey), e.g. USDT_TRC20. */
    coinKey: z
      .string({ error: 'is required (a coinKey such as USDT_TRC20)' })
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'must be a coinKey such as USDT_TRC20' }),
    /**
     * The on-chain amount the customer is asked to pay (txAmount): tells this deposit apart on the
     * shared address.
     */
    expectedAmount: positiveAmount.optional(),
    /** The deposit's transaction hash, when the customer gave it. */
    txHash: lengthBetween(1, 128).optional(),
    /** Deposit to the card; default the most the credit pays for, fee included. */
    depositAmount: positiveAmount.optional(),
    /** How long to wait for the deposit (ms); default walletFunding's 24 hours. */
    deadlineMs: z.number().int().positive().optional(),
  })
  .strict()
  .refine((f) => f.expectedAmount !== undefined || f.txHash !== undefined, {
    path: ['expectedAmount'],
    message:
      'is required unless txHash is given: every deposit of a coin goes to the same merchant address, the amount tells this customer’s apart',
  });

/** The `funding` field of the onboarding input. */
export const OnboardingFundingSchema = z.discriminatedUnion(
  'source',
  [MerchantWalletFundingSchema, SharedAccountFundingSchema, OnChainFundingSchema],
  {
    error: 'must be merchant_wallet, shared_account or on_chain',
  },
);
export type OnboardingFunding = z.output<typeof OnboardingFundingSchema>;
export type SharedAccountFunding = z.output<typeof SharedAccountFundingSchema>;
export type OnChainFunding = z.output<typeof OnChainFundingSchema>;

/**
 * The funding an input asks for: `funding`, else `budgetTopUp` read as shared_account, else the
 * merchant wallet.
 */
export function fundingOf(input: {
  funding?: OnboardingFunding | undefined;
  budgetTopUp?: BudgetTopUp | undefined;
}): OnboardingFunding {
  if (input.funding) return input.funding;
  if (input.budgetTopUp) {
    const { payerAccountId, payeeAccountId, amount } = input.budgetTopUp;
    return { source: 'shared_account', accountId: payeeAccountId, payerAccountId, amount };
  }
  return { source: 'merchant_wallet' };
}

/** Combinations of fields that contradict the funding chosen (paths name the fields). */
export function fundingInputIssues(input: {
  funding?: OnboardingFunding | undefined;
  budgetTopUp?: BudgetTopUp | undefined;
  accountId?: string | undefined;
}): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (input.funding && input.budgetTopUp)
    issues.push({
      path: 'budgetTopUp',
      message: 'give funding or budgetTopUp (the older form of funding.source shared_account), not both',
    });
  const funding = fundingOf(input);
  if (funding.source === 'shared_account' && input.accountId !== undefined && input.accountId !== funding.accountId) {
    issues.push({
      path: 'accountId',
      message:
        'must be omitted or equal funding.accountId: with shared_account the card is charged to that MARGIN account',
    });
  }
  if (funding.source === 'on_chain' && input.accountId !== undefined) {
    issues.push({
      path: 'accountId',
      message:
        'must be omitted with funding.source on_chain: the deposit is credited to the merchant WALLET and paid from it',
    });
  }
  return issues;
}

/** A paying account as prepared before anything is sent. */
export interface FundingAccount {
  accountId: string;
  currency: string;
  availableBalance: string;
  accountType?: string;
}

/**
 * The shared_account transfer: `amount` (default `needed`, exactly what the card costs), the
 * rules it breaks (`issues`: a WALLET pays a MARGIN account of the same currency, spec:
 * /account/transfer TRANSFER) and what money lacks (`shortfalls`: the WALLET must pay it, the
 * MARGIN account must then cover `needed`), all checked before anything is sent.
 */
export function planSharedAccountTransfer(
  funding: SharedAccountFunding,
  needed: string,
  payer: FundingAccount,
  margin: FundingAccount,
): { amount: string; issues: FieldIssue[]; shortfalls: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const shortfalls: FieldIssue[] = [];
  if (margin.accountType !== undefined && margin.accountType !== 'MARGIN') {
    issues.push({
      path: 'funding.accountId',
      message: `must be a MARGIN (shared) account; ${margin.accountId} is ${margin.accountType}`,
    });
  }
  if (payer.accountType !== undefined && payer.accountType !== 'WALLET') {
    issues.push({
      path: 'funding.payerAccountId',
      message: `must be a WALLET account; ${payer.accountId} is ${payer.accountType}`,
    });
  }
  if (payer.currency !== margin.currency)
    issues.push({
      path: 'funding.accountId',
      message: `currency ${margin.currency} differs from the paying account's ${payer.currency}`,
    });
  const amount = funding.amount ?? needed;
  if (cmp(payer.availableBalance, amount) < 0) {
    shortfalls.push({
      path: 'funding.amount',
      message: `needs ${amount} ${payer.currency} but account ${payer.accountId} has ${payer.availableBalance} ${payer.currency} available`,
    });
  }
  const after = add(margin.availableBalance, amount);
  if (cmp(after, needed) < 0) {
    shortfalls.push({
      path: 'funding.amount',
      message: `${amount} leaves account ${margin.accountId} ${sub(needed, after)} ${margin.currency} short of the ${needed} the card needs`,
    });
  }
  return { amount, issues, shortfalls };
}

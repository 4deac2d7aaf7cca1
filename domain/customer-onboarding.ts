/**
 * `customerOnboarding`, the workflow a backend starts (id `onboarding-<customerRef>`): the
 * cardholder when the card type needs one → (a shared-account transfer) → the card → (for a
 * physical card: delivery, then activation) → the first deposit, each as a child workflow. The
 * `progress` query reports the stage for progress displays; the result says what was created.
 *
 * Corrections after a cardholder reject go to the cardholder child
 * (`cardholderWorkflowId(customerRef)`, Update `correctCardholder`); progress names it. The
 * physical path (`activateCard` Update) is in onboarding-physical.ts, the funding sources in
 * onboarding-funding.ts.
 */
import { defineQuery } from '@temporalio/workflow';
import { z } from 'zod';
import type { CompensationOutcome } from './compensation';
import { CardholderDataSchema, type CardholderData } from './cardholder-data';
import type { BudgetTopUp } from './card-issuance';
import type { ActivationRoute } from './physical-card-activation';
import { OnboardingActivationRequestSchema, type OnboardingActivationRequest } from './onboarding-physical';
import { OnboardingFundingSchema, type FundingSource, type OnboardingFunding } from './onboarding-funding';
import type { BalanceSummary, FailureSummary } from './summaries';
import { WaitOverridesSchema, type WaitOverrides } from './wait-profile';
import { requiredText } from '../provider/schemas/fields';
import { amountString as amount, idDigits as digits } from './fields';
import { BUSINESS_REF_MAX, BUSINESS_REF_RE } from './workflow-ids';

export interface OnboardingInput {
  /** The merchant's reference for the customer: becomes the workflow id. No personal data. */
  customerRef: string;
  cardTypeId: string;
  /** Cardholder data, when the card type needs a cardholder and none is given by holderId. */
  holder?: CardholderData;
  /** An existing cardholder that already passed review (skips the cardholder step). */
  holderId?: string;
  /**
   * The first money on the card: sent with create card when the card type has
   * needDepositForActiveCard, otherwise deposited right after creation (rechargeMin/MaxQuota).
   */
  initialDeposit?: string;
  /** Account charged for the card (create card accountId). */
  accountId?: string;
  /**
   * Older form of `funding: { source: 'shared_account', ... }` (onboarding-funding.ts `fundingOf`).
   */
  budgetTopUp?: BudgetTopUp;
  /** Where the first money comes from; default the merchant wallet (onboarding-funding.ts). */
  funding?: OnboardingFunding;
  /**
   * Physical card types only: the number printed on the card (spec: createCard cardNumber). Never
   * logged or shown.
   */
  cardNumber?: string;
  /**
   * Physical card types only: activate at once with this request instead of waiting for the
   * `activateCard` Update.
   */
  activation?: OnboardingActivationRequest;
  /** Physical card types: how long to wait for the `activateCard` Update (ms); default 60 days. */
  deliveryDeadlineMs?: number;
  /** Deadline for the cardholder's approval, corrections included (ms). */
  reviewDeadlineMs?: number;
  wait?: WaitOverrides;
  /**
   * Set by an operator's resume (`retryOnboarding`, `cardflow retry`): this run continues an
   * earlier run of the same onboarding that did not complete. Every step re-derives its keys and
   * finds what the earlier run made; checks that money is still there to spend are left to each
   * step, since the earlier run may have spent it already.
   */
  resume?: OnboardingResume;
}

export interface OnboardingResume {
  /** The run this one continues. */
  previousRunId: string;
  /**
   * When the onboarding first started (epoch ms): on-chain deposits made since then are the
   * customer's.
   */
  firstStartedAt: number;
  /**
   * What an earlier run's compensation moved back to the WALLET, and the run that did: this run
   * moves that much again, under a key of its own (the earlier transfer's key is spent).
   */
  returned?: { amount: string; runId: string };
}

/**
 * Validates an onboarding request (client, CLI, and the workflow itself); messages name the field.
 */
export const OnboardingInputSchema = z.object({
  customerRef: z.string().min(1).max(BUSINESS_REF_MAX).regex(BUSINESS_REF_RE, {
    message: 'must start with a letter or digit and contain only letters, digits, "_", "." and "-"',
  }),
  cardTypeId: digits,
  holder: CardholderDataSchema.optional(),
  holderId: digits.optional(),
  initialDeposit: amount.optional(),
  accountId: digits.optional(),
  budgetTopUp: z.object({ payerAccountId: digits, payeeAccountId: digits, amount }).optional(),
  funding: OnboardingFundingSchema.optional(),
  cardNumber: z
    .string()
    .regex(/^\d{12,19}$/, { message: 'must be the 12 to 19 digits printed on the card, without spaces' })
    .optional(),
  activation: OnboardingActivationRequestSchema.optional(),
  deliveryDeadlineMs: z.number().int().positive().optional(),
  reviewDeadlineMs: z.number().int().positive().optional(),
  wait: WaitOverridesSchema,
  resume: z
    .object({
      previousRunId: requiredText,
      firstStartedAt: z.number().int().positive(),
      returned: z.object({ amount, runId: requiredText }).optional(),
    })
    .optional(),
});

export const ONBOARDING_STAGES = [
  'validating',
  'cardholder_review',
  'awaiting_correction',
  /** shared_account funding: the WALLET → MARGIN transfer before card creation. */
  'transferring',
  'creating_card',
  /** Physical card created (un_activated): waiting for the `activateCard` Update. */
  'awaiting_delivery',
  /** Physical card: the `physicalCardActivation` child runs. */
  'activating',
  /** on_chain funding: waiting for the customer's deposit (progress.funding names the address). */
  'awaiting_payment',
  'funding',
  'completed',
  'failed',
  /**
   * Stopped by an operator (`cardflow cancel`) while it waited; progress.cancellation says what
   * stands.
   */
  'cancelled',
] as const;
export type OnboardingStage = (typeof ONBOARDING_STAGES)[number];

export interface OnboardingProgress {
  customerRef: string;
  stage: OnboardingStage;
  /** While the cardholder is in review or awaiting correction. */
  review?: {
    statusFlowLocation?: 'admin' | 'channel';
    rejectReason?: string;
    /** Where to send the `correctCardholder` Update. */
    correctionWorkflowId: string;
  };
  holderId?: string;
  cardNo?: string;
  /** Physical card: where the activation stands. */
  activation?: {
    /**
     * The child that activates (physicalCardActivation); its `activationStatus` query has the
     * detail.
     */
    workflowId: string;
    /** Set once the activation request is known (input or `activateCard` Update). */
    route?: ActivationRoute;
    /** While awaiting_delivery: when the wait for the Update ends (epoch ms). */
    deadlineAt?: number;
  };
  /** The funding source and, for on_chain, where the customer pays and how the deposit stands. */
  funding?: {
    source: FundingSource;
    /** shared_account: the fundTransfer child and the MARGIN account charged. */
    transferWorkflowId?: string;
    accountId?: string;
    /** on_chain: the walletFunding child, the coin, the deposit address and the amount to pay. */
    workflowId?: string;
    coinKey?: string;
    chain?: string;
    address?: string;
    expectedAmount?: string;
    /**
     * on_chain: wait_process, processing, success or fail, as last seen (webhooks; success/fail at
     * the end).
     */
    depositStatus?: string;
    walletOrderNo?: string;
    receivedAmount?: string;
  };
  /**
   * Why it failed, and whether an operator can resume it (`retryable`: `cardflow retry
   * <customerRef>`).
   */
  failure?: FailureSummary;
  /**
   * After it failed or was cancelled having moved money: what went back and what stays at the
   * provider (where and why); reconciliation reports what stays until an operator acknowledges it.
   */
  compensation?: CompensationOutcome;
  /**
   * When it was cancelled: the stage it was in, and what was still under way at the provider then.
   */
  cancellation?: { stage: OnboardingStage; pending?: string };
  /** Set on a run that resumes an earlier one. */
  resumedFrom?: string;
  /** Each stage entered, with its workflow time (epoch ms). */
  stages: { stage: OnboardingStage; at: number }[];
}

export const progressQuery = defineQuery<OnboardingProgress>('progress');

export interface OnboardingResult {
  customerRef: string;
  cardTypeId: string;
  cardholder?: {
    holderId: string;
    /** False when an existing holderId was given. */
    created: boolean;
    resubmissions: number;
  };
  card: {
    cardNo: string;
    cardStatus: string;
    merchantOrderNo: string;
    /** Initial deposit sent with create card ("0" when the card type takes none). */
    initialDeposit: { amount: string; fee: string };
  };
  /** The deposit made after creation, when the card type takes no initial deposit at creation. */
  deposit?: { merchantOrderNo: string; amount: string; fee: string };
  /** shared_account (or budgetTopUp) transfer, when one was made. */
  topUpMerchantOrderNo?: string;
  /** Physical card: how it was activated. */
  activation?: { route: ActivationRoute; merchantOrderNo: string; workOrderNo?: string };
  /** on_chain funding: the credited deposit (the card deposit is `deposit`). */
  onChainDeposit?: {
    walletOrderNo: string;
    address: string;
    receivedAmount: string;
    currency: string;
    txHash?: string;
  };
  balance?: BalanceSummary;
}

/**
 * `customerOnboarding`, the workflow a backend starts (id `onboarding-<customerRef>`): the
 * cardholder when the card type needs one → the card → the initial deposit, each as a child
 * workflow. The `progress` query reports the stage for progress displays; the result says what
 * was created.
 *
 * Corrections after a cardholder reject go to the cardholder child
 * (`cardholderWorkflowId(customerRef)`, Update `correctCardholder`); progress names it.
 */
import { defineQuery } from '@temporalio/workflow';
import { z } from 'zod';
import { CardholderDataSchema, type CardholderData } from './cardholder-data';
import type { BudgetTopUp } from './card-issuance';
import type { BalanceSummary, FailureSummary } from './workflow-types';
import type { WaitOverrides } from './wait-profile';
import { CUSTOMER_REF_MAX, CUSTOMER_REF_RE } from './workflow-ids';

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
  /** BUDGET_CARD mode: fund the charged account first. */
  budgetTopUp?: BudgetTopUp;
  /** Deadline for the cardholder's approval, corrections included (ms). */
  reviewDeadlineMs?: number;
  wait?: WaitOverrides;
}

const digits = z.string().regex(/^\d{1,19}$/, { message: 'must be an id of digits' });
const amount = z.string().regex(/^(0|[1-9]\d*)(\.\d+)?$/, { message: 'must be a decimal string such as "10.50"' });
const waitFields = z
  .object({
    firstPollMs: z.number().positive(),
    maxPollMs: z.number().positive(),
    backoff: z.number().min(1),
    attemptMs: z.number().positive(),
    heartbeatTimeoutMs: z.number().positive(),
    retryInitialIntervalMs: z.number().positive(),
    retryMaxIntervalMs: z.number().positive(),
  })
  .partial();

/** Validates an onboarding request (client, CLI, and the workflow itself); messages name the field. */
export const OnboardingInputSchema = z.object({
  customerRef: z
    .string()
    .min(1)
    .max(CUSTOMER_REF_MAX)
    .regex(CUSTOMER_REF_RE, { message: 'must start with a letter or digit and contain only letters, digits, "_", "." and "-"' }),
  cardTypeId: digits,
  holder: CardholderDataSchema.optional(),
  holderId: digits.optional(),
  initialDeposit: amount.optional(),
  accountId: digits.optional(),
  budgetTopUp: z.object({ payerAccountId: digits, payeeAccountId: digits, amount }).optional(),
  reviewDeadlineMs: z.number().int().positive().optional(),
  wait: z.object({ cardOperation: waitFields.optional(), review: waitFields.optional() }).optional(),
});

export const ONBOARDING_STAGES = [
  'validating',
  'cardholder_review',
  'awaiting_correction',
  'creating_card',
  'funding',
  'completed',
  'failed',
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
  failure?: FailureSummary;
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
  /** BUDGET_CARD top-up transfer, when one was made. */
  topUpMerchantOrderNo?: string;
  balance?: BalanceSummary;
}

/**
 * `cardholderOnboarding`: create a cardholder (B2B, B2C or IDV shape), wait through platform
 * (admin) then bank (channel) review; on reject, wait for corrected data through the
 * `correctCardholder` Update and resubmit with the update operation (spec: Cardholders; States
 * and transitions: update only when status=reject).
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { CardType } from '../provider/schemas/card-type';
import type { CardholderData } from './cardholder-data';
import type { FailureSummary } from './summaries';
import type { WaitOverrides } from './wait-profile';
import type { StartAttributes } from './start-attributes';

/** Default time a cardholder has to get approved, corrections included: 30 days. */
export const DEFAULT_REVIEW_DEADLINE_MS = 30 * 24 * 60 * 60 * 1000;

export interface CardholderOnboardingInput {
  cardTypeId: string;
  /** The card type, when the caller already holds it (saves a lookup); fetched otherwise. */
  cardType?: CardType;
  holder: CardholderData;
  /** The merchant's customer reference (search attribute; never personal data). */
  customerRef?: string;
  /** Cards the holder already has under this card type (cardHolderMaxCardLimit check). */
  existingCards?: number;
  /**
   * How long from start until the holder must be approved (ms); default {@link
   * DEFAULT_REVIEW_DEADLINE_MS}.
   */
  reviewDeadlineMs?: number;
  /** Parent workflow to tell about rejects and resubmissions (set by customerOnboarding). */
  notifyParent?: boolean;
  wait?: WaitOverrides;
  /**
   * The search attributes the starter set at start (so the workflow does not upsert them again).
   */
  startAttributes?: StartAttributes;
}

export interface CardholderOnboardingResult {
  holderId: string;
  status: 'pass_audit';
  /** merchantOrderNo of the create call. */
  merchantOrderNo: string;
  /** How many corrections were resubmitted. */
  resubmissions: number;
}

export const CARDHOLDER_STAGES = [
  'validating',
  'submitting',
  'in_review',
  'awaiting_correction',
  'resubmitting',
  'approved',
  'failed',
  /** Stopped by an operator's cancel (a mutation under way was finished first). */
  'cancelled',
] as const;
export type CardholderStage = (typeof CARDHOLDER_STAGES)[number];

export interface CardholderOnboardingStatus {
  stage: CardholderStage;
  holderId?: string;
  /** admin (platform review) or channel (bank review), as last seen. */
  statusFlowLocation?: 'admin' | 'channel';
  /** Provider review status as last seen. */
  status?: 'wait_audit' | 'pass_audit' | 'under_review' | 'reject';
  /** The provider's description of the last reject. */
  rejectReason?: string;
  resubmissions: number;
  /** Epoch ms after which the workflow fails with ReviewDeadlineExceeded. */
  deadlineAt?: number;
  failure?: FailureSummary;
}

export const cardholderStatusQuery = defineQuery<CardholderOnboardingStatus>('cardholderStatus');

/** Corrected cardholder data after a reject; same shape as the original. */
export interface CardholderCorrection {
  holder: CardholderData;
}

/**
 * Accepted only while a reject awaits correction; the validator refuses bad data with an
 * ApplicationFailure (InvalidInput / NotEligible / CorrectionNotExpected) naming the field.
 * Resolves once the update has been sent, with the status the provider answered.
 */
export const correctCardholderUpdate = defineUpdate<CardholderOnboardingStatus, [CardholderCorrection]>(
  'correctCardholder',
);

/**
 * What a cardholder child tells its parent when the customer is needed (reject) or review resumes.
 */
export interface CardholderProgress {
  stage: CardholderStage;
  holderId?: string;
  statusFlowLocation?: 'admin' | 'channel';
  rejectReason?: string;
}

export const cardholderProgressSignal = defineSignal<[CardholderProgress]>('cardholderProgress');

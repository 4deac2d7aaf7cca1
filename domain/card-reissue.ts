/**
 * `cardReissue`, id `card-reissue-<oldCardNo>`: the card that replaces an old one, for the same
 * holder and card type, made once per old card however often it is asked. A virtual card is
 * made (`cardIssuance` child) and the old card frozen once the new one is active. A physical card
 * takes the number printed on the new card, is made `un_activated`, waits until it reached the
 * customer (the `activateCard` Update, or the request given up front) and is activated
 * (`physicalCardActivation` child), as an onboarding's physical card is; the old card is frozen
 * once the new one is active. `freezeOld: 'now'` freezes the old card first instead (a card
 * lost or stolen). The old card is frozen through its own workflow's `freeze` Update, so the
 * freeze takes its turn among the card's other requests and is sent once.
 */
import { defineQuery } from '@temporalio/workflow';
import type { CardIssuanceResult } from './card-issuance';
import type { OnboardingActivationRequest } from './onboarding-physical';
import type { PhysicalCardActivationResult } from './physical-card-activation';
import type { StartAttributes } from './start-attributes';
import type { FailureSummary } from './summaries';
import type { WaitOverrides } from './wait-profile';

/** When the old card is frozen: once the new card is active (default), or before anything else. */
export const REPLACED_CARD_FREEZES = ['when_active', 'now'] as const;
export type ReplacedCardFreeze = (typeof REPLACED_CARD_FREEZES)[number];

export interface CardReissueInput {
  oldCardNo: string;
  cardTypeId: string;
  holderId?: string;
  /** The new card's initial deposit, when its card type needs one. */
  initialDeposit?: string;
  /**
   * The number printed on the new physical card (required for a physical card type; never logged).
   */
  cardNumber?: string;
  /** A physical card's activation request given up front, instead of the `activateCard` Update. */
  activation?: OnboardingActivationRequest;
  /** How long a physical card may take to reach the customer; default 60 days. */
  deliveryDeadlineMs?: number;
  freezeOld: ReplacedCardFreeze;
  customerRef?: string;
  wait?: WaitOverrides;
  startAttributes?: StartAttributes;
}

/** What became of the old card. */
export type ReplacedCardOutcome =
  | { outcome: 'frozen'; merchantOrderNo: string }
  /**
   * Not frozen by this reissue: already frozen or blocked, cancelled, or its freeze refused or
   * failed.
   */
  | { outcome: 'not_frozen'; status?: string; reason: string };

export interface CardReissueResult {
  oldCardNo: string;
  card: CardIssuanceResult;
  /** A physical card's activation. */
  activation?: PhysicalCardActivationResult;
  oldCard: ReplacedCardOutcome;
}

export const CARD_REISSUE_STAGES = [
  'validating',
  'freezing_old_card',
  'issuing',
  'awaiting_delivery',
  'activating',
  'completed',
  'failed',
  'cancelled',
] as const;
export type CardReissueStage = (typeof CARD_REISSUE_STAGES)[number];

export interface CardReissueStatus {
  stage: CardReissueStage;
  oldCardNo: string;
  /** The new card, once made. */
  cardNo?: string;
  cardStatus?: string;
  /** A physical card's activation child, and until when its delivery is awaited. */
  activation?: { workflowId: string; deadlineAt?: number };
  oldCard?: ReplacedCardOutcome;
  failure?: FailureSummary;
}

export const cardReissueStatusQuery = defineQuery<CardReissueStatus>('cardReissueStatus');

/**
 * The requestId of the old card's freeze: one per old card, so a repeat is answered by the first.
 */
export function replacedCardRequestId(oldCardNo: string): string {
  return `replaced-${oldCardNo}`;
}

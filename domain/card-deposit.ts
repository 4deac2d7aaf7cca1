/**
 * `cardDeposit`: a top-up of a card within rechargeMin/MaxQuota, with the fee computed exactly
 * (rechargeFeeRate, rechargeFixedFee, rechargeDigital), checked against the paying account's
 * balance before anything is sent; waits for the deposit operation to succeed (spec: deposit).
 */
import { defineQuery } from '@temporalio/workflow';
import type { CardType } from '../provider/schemas/card-type';
import type { BalanceSummary, FailureSummary } from './summaries';
import type { WaitOverrides } from './wait-profile';
import type { StartAttributes } from './start-attributes';

export interface CardDepositInput {
  cardNo: string;
  amount: string;
  cardTypeId: string;
  cardType?: CardType;
  /** Account whose balance pays (amount + fee); defaults to the merchant's WALLET account. */
  accountId?: string;
  customerRef?: string;
  wait?: WaitOverrides;
  /**
   * The search attributes the starter set at start (so the workflow does not upsert them again).
   */
  startAttributes?: StartAttributes;
}

export interface CardDepositResult {
  cardNo: string;
  merchantOrderNo: string;
  orderNo: string;
  amount: string;
  fee: string;
  /** As the success record states it. */
  receivedAmount?: string;
  currency: string;
  balance?: BalanceSummary;
}

export const CARD_DEPOSIT_STAGES = [
  'validating',
  'depositing',
  'awaiting_deposit',
  'completed',
  'failed',
  'cancelled',
] as const;
export type CardDepositStage = (typeof CARD_DEPOSIT_STAGES)[number];

export interface CardDepositStatus {
  stage: CardDepositStage;
  merchantOrderNo?: string;
  /** The exact fee computed before sending. */
  fee?: string;
  operationStatus?: string;
  failure?: FailureSummary;
}

export const cardDepositStatusQuery = defineQuery<CardDepositStatus>('cardDepositStatus');

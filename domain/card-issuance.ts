/**
 * `cardIssuance`: create card v2 from a card type (spec: Endpoints, create card), with the
 * holder when needCardHolder and the initial deposit when needDepositForActiveCard; in shared
 * card (BUDGET_CARD) mode the charged account can first be topped up by a fund transfer. Waits
 * for the create operation to succeed, then reads card info. Never returns sensitive data.
 */
import { defineQuery } from '@temporalio/workflow';
import type { CardType } from '../provider/schemas/card-type';
import type { BalanceSummary, FailureSummary } from './summaries';
import type { WaitOverrides } from './wait-profile';
import type { StartAttributes } from './start-attributes';

/**
 * BUDGET_CARD mode: move funds (fund transfer, type TRANSFER) into the account the card charges.
 */
export interface BudgetTopUp {
  /** Paying account, typically the WALLET. */
  payerAccountId: string;
  /** Account the card charges (a MARGIN / shared account); also sent as create card's accountId. */
  payeeAccountId: string;
  amount: string;
}

export interface CardIssuanceInput {
  cardTypeId: string;
  cardType?: CardType;
  /** Required when the card type has needCardHolder; the holder must have passed review. */
  holderId?: string;
  /**
   * Initial deposit: required within depositAmountMin/MaxQuotaForActiveCard when
   * needDepositForActiveCard.
   */
  initialDeposit?: string;
  /**
   * Account charged for the card (create card accountId). Defaults to the provider's choice (the
   * wallet).
   */
  accountId?: string;
  /**
   * The number printed on the physical card sent to the customer (createCard `cardNumber`,
   * required for a physical card type; refused for a virtual one). Sensitive: it travels only in
   * encrypted payloads and is never logged, queried or put in a search attribute.
   */
  cardNumber?: string;
  budgetTopUp?: BudgetTopUp;
  customerRef?: string;
  wait?: WaitOverrides;
  /**
   * The search attributes the starter set at start (so the workflow does not upsert them again).
   */
  startAttributes?: StartAttributes;
}

export interface CardIssuanceResult {
  cardNo: string;
  /** Card status after creation (e.g. Normal, or un_activated for physical cards). */
  cardStatus: string;
  holderId?: string;
  cardTypeId: string;
  /** merchantOrderNo and provider orderNo of the create operation. */
  merchantOrderNo: string;
  orderNo: string;
  /** Initial deposit and its fee as the create record states them ("0" when none). */
  initialDeposit: { amount: string; fee: string };
  /** merchantOrderNo of the BUDGET_CARD top-up, when one was made. */
  topUpMerchantOrderNo?: string;
  balance?: BalanceSummary;
}

export const CARD_ISSUANCE_STAGES = [
  'validating',
  'topping_up',
  'creating',
  'awaiting_creation',
  'reading_card',
  'completed',
  'failed',
  /** Stopped by an operator's cancel (a mutation under way was finished first). */
  'cancelled',
] as const;
export type CardIssuanceStage = (typeof CARD_ISSUANCE_STAGES)[number];

export interface CardIssuanceStatus {
  stage: CardIssuanceStage;
  merchantOrderNo?: string;
  cardNo?: string;
  /** Status of the create operation as last seen. */
  operationStatus?: string;
  failure?: FailureSummary;
}

export const cardIssuanceStatusQuery = defineQuery<CardIssuanceStatus>('cardIssuanceStatus');

/**
 * Activity results: program types only (decimal and id strings), JSON-safe for workflow
 * history, and never sensitive card data or personal data beyond what the workflow already holds.
 */

export type { CardholderReview, CardOperation } from '../domain/provider-records';
/** An account's balance, as the checks before money moves read it. */
export type { TransferAccount } from '../domain/fund-transfer';

/** Card info without sensitive data (spec: Card; no cardNumber, cvv, validPeriod). */
export interface CardSummary {
  cardNo: string;
  cardTypeId: string;
  holderId?: string;
  status: string;
  blocked: boolean;
  balance?: { amount: string; currency: string };
}

export interface TransferResult {
  merchantOrderNo: string;
  /** False when the provider said the order already existed (an earlier attempt went through). */
  sent: boolean;
}

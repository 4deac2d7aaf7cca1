/**
 * Activity results: program types only (decimal and id strings), JSON-safe for workflow
 * history, and never sensitive card data or personal data beyond what the workflow already holds.
 */

/** A cardholder's review state (spec: Cardholder review result / query record). */
export interface CardholderReview {
  holderId: string;
  status: 'wait_audit' | 'pass_audit' | 'under_review' | 'reject';
  statusFlowLocation: 'admin' | 'channel';
  /** The provider's description (e.g. the reject reason). */
  description?: string;
  merchantOrderNo?: string;
}

/** A card operation record (spec: Card operation record), reduced to what the workflows use. */
export interface CardOperation {
  orderNo: string;
  merchantOrderNo: string;
  cardNo?: string;
  type: string;
  status: 'wait_process' | 'processing' | 'success' | 'fail';
  amount: string;
  fee: string;
  receivedAmount?: string;
  currency: string;
  description?: string;
}

/** Card info without sensitive data (spec: Card; no cardNumber, cvv, validPeriod). */
export interface CardSummary {
  cardNo: string;
  cardTypeId: string;
  holderId?: string;
  status: string;
  blocked: boolean;
  balance?: { amount: string; currency: string };
}

export interface AccountBalance {
  accountId: string;
  accountType: 'WALLET' | 'MARGIN';
  currency: string;
  availableBalance: string;
}

export interface TransferResult {
  merchantOrderNo: string;
  /** False when the provider said the order already existed (an earlier attempt went through). */
  sent: boolean;
}

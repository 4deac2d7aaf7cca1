/** The summaries progress and status queries report: a balance, a failure. */

/** A card's balance as the provider reports it (balanceInfo.amount is the available balance). */
export interface BalanceSummary {
  amount: string;
  currency: string;
}

/** Why a process failed, as a progress query reports it. */
export interface FailureSummary {
  /** An `ApplicationFailure.type` (domain/failure-types.ts or provider/errors.ts). */
  type: string;
  message: string;
  /**
   * Whether resuming can succeed once the cause is gone (domain/failure-types.ts `isResumable`).
   */
  retryable?: boolean;
}

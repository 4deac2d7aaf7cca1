/**
 * `ApplicationFailure.type` strings of the card lifecycle workflows (issue #5), beside the
 * onboarding ones in `failure-types.ts`. Clients branch on these, never on messages.
 */
export const LifecycleFailureTypes = {
  /** The card was cancelled (risk control, or a cancel operation); nothing more can run on it. */
  cardCancelled: 'CardCancelled',
  /** The card's status does not allow the operation (e.g. freeze a frozen card). Nothing was sent. */
  operationNotAllowed: 'OperationNotAllowed',
  /** No activation code record arrived for the card before the deadline. */
  activationCodeTimeout: 'ActivationCodeTimeout',
  /** The card did not reach Normal after activation within the deadline. */
  activationNotConfirmed: 'ActivationNotConfirmed',
  /** The on-chain deposit ended in `fail`; the message carries the provider's reason. Nothing was moved. */
  depositFailed: 'DepositFailed',
  /** No matching on-chain deposit reached success before the deadline. Nothing was moved. */
  depositExpired: 'DepositExpired',
  /** The transfer was sent but its ledger entries could not be found (should not happen; operator check). */
  transferNotInLedger: 'TransferNotInLedger',
  /** A sealed secret (PIN, activation code) could not be opened with the merchant key. */
  sealedSecretInvalid: 'SealedSecretInvalid',
} as const;
export type LifecycleFailureType = (typeof LifecycleFailureTypes)[keyof typeof LifecycleFailureTypes];

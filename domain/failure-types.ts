/**
 * `ApplicationFailure.type` strings raised by cardflow's workflows and activities. Clients and
 * tests branch on these, never on messages or class names. Provider failures keep the provider
 * client's own `type` (`ProviderBusinessError`, `ProviderValidationError`, ... in api/errors.ts).
 */
export const FailureTypes = {
  /** A workflow input breaks a rule; the message names the field. Nothing was sent. */
  invalidInput: 'InvalidInput',
  /** The card type does not accept this request (region, area code, limits, bounds). Nothing was sent. */
  notEligible: 'NotEligible',
  /** The paying account's available balance does not cover amount + fees. Nothing was sent. */
  insufficientBalance: 'InsufficientBalance',
  /** A correction Update sent at a moment it cannot be applied (no reject pending). */
  correctionNotExpected: 'CorrectionNotExpected',
  /** The provider finished the operation with status `fail`; the message carries its description. */
  operationFailed: 'OperationFailed',
  /** The cardholder was not approved before the configured deadline. */
  reviewDeadlineExceeded: 'ReviewDeadlineExceeded',
  /** A long-poll attempt ended without reaching the state; retryable (the retry policy backs off). */
  stillWaiting: 'StillWaiting',
  /** The provider said "Duplicate order number" but the lookup by merchantOrderNo found nothing yet; retryable. */
  orderNotFound: 'OrderNotFound',
  /** The card type named does not exist at the provider. */
  cardTypeNotFound: 'CardTypeNotFound',
} as const;
export type FailureType = (typeof FailureTypes)[keyof typeof FailureTypes];

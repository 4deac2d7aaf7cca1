/**
 * Every `ApplicationFailure.type` cardflow's workflows and activities raise, and the `type` of
 * each error the client throws, in one registry. Clients and tests branch on these, never on
 * messages or class names. Provider failures keep the
 * provider client's own `type` (`ProviderBusinessError`, `ProviderValidationError`, ... in
 * provider/error-types.ts). domain/failures.ts raises them.
 */
import { ProviderErrorTypes, type ProviderErrorType } from '../provider/error-types';

export const FailureTypes = {
  /** A workflow input breaks a rule; the message names the field. Nothing was sent. */
  invalidInput: 'InvalidInput',
  /**
   * The card type does not accept this request (region, area code, limits, bounds). Nothing was
   * sent.
   */
  notEligible: 'NotEligible',
  /** The paying account's available balance does not cover amount + fees. Nothing was sent. */
  insufficientBalance: 'InsufficientBalance',
  /** A correction Update sent at a moment it cannot be applied (no reject pending). */
  correctionNotExpected: 'CorrectionNotExpected',
  /**
   * The holder was changed outside cardflow after a correction was accepted; an operator decides.
   */
  correctionConflict: 'CorrectionConflict',
  /**
   * The provider finished the operation with status `fail`; the message carries its description.
   */
  operationFailed: 'OperationFailed',
  /** The cardholder was not approved before the configured deadline. */
  reviewDeadlineExceeded: 'ReviewDeadlineExceeded',
  /**
   * A long-poll attempt ended without reaching the state; retryable (the retry policy backs off).
   */
  stillWaiting: 'StillWaiting',
  /**
   * The provider said "Duplicate order number" but the lookup by merchantOrderNo found nothing yet;
   * retryable.
   */
  orderNotFound: 'OrderNotFound',
  /** The card type named does not exist at the provider. */
  cardTypeNotFound: 'CardTypeNotFound',

  /** The worker was started without the Temporal port reconciliation reads workflows through. */
  reconciliationNotConfigured: 'ReconciliationNotConfigured',
  /** The provider does not list the cardholder (yet): a record just created may lag; retryable. */
  cardholderNotFound: 'CardholderNotFound',
  /**
   * An error no other type names: a bug, or a local resource (disk, database) that failed.
   * Retryable, so the run goes on once it is fixed; the message keeps the original error's name.
   */
  unexpected: 'Unexpected',

  // Cards and funds.
  /** The card was cancelled (risk control, or a cancel operation); nothing more can run on it. */
  cardCancelled: 'CardCancelled',
  /**
   * The card's status does not allow the operation (e.g. freeze a frozen card). Nothing was sent.
   */
  operationNotAllowed: 'OperationNotAllowed',
  /** No activation code record arrived for the card before the deadline. */
  activationCodeTimeout: 'ActivationCodeTimeout',
  /** The card did not reach Normal after activation within the deadline. */
  activationNotConfirmed: 'ActivationNotConfirmed',
  /**
   * The on-chain deposit ended in `fail`; the message carries the provider's reason. Nothing was
   * moved.
   */
  depositFailed: 'DepositFailed',
  /** No matching on-chain deposit reached success before the deadline. Nothing was moved. */
  depositExpired: 'DepositExpired',
  /**
   * The transfer was sent but its ledger entries could not be found (should not happen; operator
   * check).
   */
  transferNotInLedger: 'TransferNotInLedger',
  /** A sealed secret (PIN, activation code) could not be opened with the merchant key. */
  sealedSecretInvalid: 'SealedSecretInvalid',

  // Notifications to the merchant's backend (docs/notifications.md).
  /** The backend did not answer a notification with a 2xx (or could not be reached); retryable. */
  notificationNotDelivered: 'NotificationNotDelivered',
  /** A 3DS record was not (yet) found at the provider; retryable until the relay's bound. */
  threeDsRecordNotFound: 'ThreeDsRecordNotFound',
  /** A 3DS record expired before its code reached the backend; recorded undeliverable. */
  threeDsExpired: 'ThreeDsExpired',

  // The physical card path of an onboarding.
  /**
   * An `activateCard` Update sent when none can be taken (not a physical card, or one already
   * accepted).
   */
  activationNotExpected: 'ActivationNotExpected',
  /** No `activateCard` Update arrived before the delivery deadline; the card stays un_activated. */
  deliveryDeadlineExceeded: 'DeliveryDeadlineExceeded',
} as const;
export type FailureType = (typeof FailureTypes)[keyof typeof FailureTypes];

/**
 * The `type` of the errors the client package throws itself, before anything is started or sent:
 * a backend branches on `error.type` as it does on a failure's.
 */
export const ClientErrorTypes = {
  /** A business reference (customerRef, transferRef, ...) that cannot become a workflow id. */
  invalidBusinessRef: 'InvalidBusinessRef',
  /** The card's workflow has completed (the card is cancelled): nothing more can run on it. */
  cardWorkflowClosed: 'CardWorkflowClosed',
  /** No usable merchant key to seal a PIN or a code with; the message names the variables. */
  merchantKeyUnusable: 'MerchantKeyError',
  /** An onboarding cannot be resumed or cancelled as asked; the message says why. */
  onboardingRecoveryRefused: 'OnboardingRecoveryError',
  /** An old card cannot be replaced now; the message says why and what to do. */
  cardReissueRefused: 'CardReissueRefused',
  /**
   * A card's details were shown as often as the limit allows; the error says when they may be
   * again.
   */
  cardRevealRefused: 'CardRevealRefused',
  /**
   * A reference list an input is checked against could be read neither from the cache nor from
   * the provider: nothing was started; the message names the list and the cause.
   */
  referenceDataUnavailable: 'ReferenceDataUnavailable',
} as const;
export type ClientErrorType = (typeof ClientErrorTypes)[keyof typeof ClientErrorTypes];

/** Every failure type cardflow knows: its own, the client's and the provider client's. */
export type KnownFailureType = FailureType | ClientErrorType | ProviderErrorType;

/**
 * Failures that resuming cannot change: the request itself (the customer's data, the card type),
 * or a final decision of the provider (an operation it failed, a cancelled card, a failed on-chain
 * deposit). Every other failure — an outage that outlasted the retries, a deadline, a short
 * balance since topped up, a configuration or a bug since fixed — an operator may resume
 * (`cardflow retry`), and the resumed run continues from what exists at the provider.
 */
const FINAL_FAILURE_TYPES: readonly string[] = [
  FailureTypes.invalidInput,
  FailureTypes.notEligible,
  FailureTypes.cardTypeNotFound,
  FailureTypes.operationFailed,
  FailureTypes.cardCancelled,
  FailureTypes.depositFailed,
  FailureTypes.activationNotExpected,
  // A request the provider client refused before sending it breaks a rule of the spec: the same
  // request breaks it again.
  ProviderErrorTypes.validation,
];

/**
 * True when an onboarding that failed with `type` can be resumed to completion once its cause is
 * gone.
 */
export function isResumable(type: string): boolean {
  return !FINAL_FAILURE_TYPES.includes(type);
}

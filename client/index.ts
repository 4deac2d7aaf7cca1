import type { fundTransferWorkflow, sharedAccountWorkflow, walletFundingWorkflow } from '../domain/workflows';
import { workflowClients, type DefinedHandle, type RequestOf } from './definitions';
export { transferWorkflowId, fundingWorkflowId } from '../domain/workflow-ids';
/**
 * cardflow's client library for backend services: start (idempotently, by a business key),
 * follow, query and await every cardflow workflow: customer onboarding, physical card activation,
 * fund transfers, shared accounts, wallet funding, card operations and the per-card workflow.
 */
export {
  connectTemporalClient,
  temporalSettingsFromEnv,
  type TemporalClientHandle,
  type TemporalSettings,
} from '../platform/temporal/connection';
export {
  awaitResult,
  getProgress,
  onboardingHandle,
  startOnboarding,
  submitCorrection,
  type CustomerOnboardingWorkflow,
  type OnboardingActivationInput,
  type OnboardingHandle,
  type OnboardingRequest,
  type ReferenceCheckOptions,
  type StartOnboardingOptions,
  type StartedOnboarding,
} from './onboarding';
export {
  cancelOnboarding,
  OnboardingRecoveryError,
  retryOnboarding,
  type CancelledOnboarding,
  type ResumedOnboarding,
  type RetryOnboardingOptions,
} from './recovery';
export { acknowledgeStranded, getStrandedStatus } from './stranded-money';
export { watchProgress, watchWorkflow, type WatchOptions, type WatchResult, type WatchTarget } from './progress';
export { InvalidInputError, parseCardholderCorrection, parseOnboardingInput } from './validation';
export { startOnce, startThroughOutage, START_TOKEN_MEMO, type StartOptions, type Started } from './start';
export {
  DEFAULT_UNAVAILABLE_RETRY_MS,
  isTemporalUnavailable,
  retryWhileUnavailable,
  TemporalUnavailableError,
  type UnavailableRetry,
} from '../platform/temporal/unavailable-retry';
export { MERCHANT_PUBLIC_KEY_ENV, MerchantKeyError, merchantPublicKeyFrom, sealPinForWorkflow } from './sealing';
export {
  activationHandle,
  activationInput,
  awaitActivation,
  getActivationStatus,
  startActivation,
  type ActivationHandle,
  type ActivationRequest,
  type ActivationStartOptions,
} from './activation';
export { definedClient, workflowClients, type DefinedClient, type DefinedHandle, type RequestOf } from './definitions';
export { awaitDepositAddress } from './wallet-funding';
// The named functions of the workflows a backend starts by a request alone: each is its entry in
// `workflowClients`, made from the workflow's definition (their documentation is
// `DefinedClient`'s).

/**
 * Fund transfers, workflow `fundTransfer`, id `transfer-<transferRef>` (domain/fund-transfer.ts).
 */
export const {
  parse: parseTransferRequest,
  start: startTransfer,
  handle: transferHandle,
  status: getTransferStatus,
  result: awaitTransfer,
} = workflowClients.fundTransfer;
export type TransferRequest = RequestOf<typeof fundTransferWorkflow>;
export type TransferHandle = DefinedHandle<typeof fundTransferWorkflow>;

/**
 * Shared (MARGIN) accounts, workflow `sharedAccount`, id `shared-account-<accountName>`
 * (domain/shared-account.ts).
 */
export const {
  start: startSharedAccount,
  handle: sharedAccountHandle,
  result: awaitSharedAccount,
} = workflowClients.sharedAccount;
export type SharedAccountRequest = RequestOf<typeof sharedAccountWorkflow>;

/**
 * Wallet funding, workflow `walletFunding`, id `funding-<fundingRef>` (domain/wallet-funding.ts).
 */
export const {
  parse: parseFundingRequest,
  start: startWalletFunding,
  handle: fundingHandle,
  status: getFundingStatus,
  result: awaitFunding,
} = workflowClients.walletFunding;
export type FundingRequest = RequestOf<typeof walletFundingWorkflow>;
export type FundingHandle = DefinedHandle<typeof walletFundingWorkflow>;
export {
  awaitCardOperation,
  cardOperationHandle,
  cardOperationInput,
  getCardOperationStatus,
  startCardOperation,
  type CardOperationHandle,
  type CardOperationRequest,
  type CardOperationStartOptions,
} from './card-operations';
export {
  cardEntityHandle,
  cardRequest,
  CardWorkflowClosedError,
  depositToCard,
  freezeCard,
  requestCardUnblock,
  getCardSnapshot,
  refreshCard,
  unfreezeCard,
  updateCardPin,
  type CardEntityHandle,
  type CardEntityOptions,
  type CardRequestInput,
  type CardRequestKind,
  type CardRequests,
} from './card-entity';
export {
  storeFile,
  uploadFileProblems,
  type FileToStore,
  type StoredFileReference,
  type StoreFileOptions,
} from './files';
export {
  openReferenceData,
  referenceData,
  ReferenceDataUnavailableError,
  type City,
  type CityNode,
  type MobileAreaCode,
  type Occupation,
  type ReferenceData,
  type ReferenceDataDeps,
  type ReferenceList,
  type Region,
} from './reference-data';
export { referenceProblems, type WhenReferenceUnavailable } from './reference-check';
export { REFERENCE_LIST_NAMES, type ReferenceListName } from '../provider/reference-lists';
export {
  activateReissuedCard,
  CardReissueRefusedError,
  reissueCard,
  startCardReissue,
  type ReissueOptions,
} from './reissue';
export type { CardReissueResult, CardReissueStatus, ReplacedCardOutcome } from '../domain/card-reissue';
export {
  card3dsRecords,
  cardAuthorizations,
  cardFees,
  cardOperations,
  type Card3dsSummary,
  type CardHistoryOptions,
  type CardHistoryProvider,
} from './card-history';
export {
  accountLedger,
  findCardholders,
  listAccounts,
  type AccountReadsProvider,
  type CardholderLookup,
  type LedgerQuery,
} from './account-reads';
export { getCardControls, type CardControls, type CardControlsProvider } from './card-controls';
export {
  CardRevealRefusedError,
  DEFAULT_REVEAL_LIMIT,
  openCardDetails,
  revealCardDetails,
  type CardDetails,
  type CardDetailsDeps,
  type CardDetailsReader,
  type RevealRequest,
} from './card-details';
export type { RevealLimit, RevealLog, RevealRecord } from '../platform/storage/reveal-log';
// The provider client the card reads take, made from the same settings the worker uses.
export { createProviderClient, type ProviderClient } from '../provider/client';
export { providerConfig } from '../provider/config';
// What openCardDetails takes: the configuration read as every cardflow process reads it.
export { readConfiguration, type Configuration } from '../platform/config/schema';
export { processEnv } from '../platform/config/process-env';
export {
  readWorkflowStatus,
  STATUS_VIEWS,
  statusViewFor,
  watchTargetFor,
  type StatusView,
  type WorkflowStatusLine,
} from './workflow-status';
export * from './describe';
// The request schemas live with their workflows' definitions; a backend validates with the same
// ones.
export { ActivationRequestSchema } from '../domain/physical-card-activation';
export { CardOperationRequestSchema } from '../domain/card-operations';
export { FundingRequestSchema } from '../domain/wallet-funding';
export { SharedAccountRequestSchema } from '../domain/shared-account';
export { TransferRequestSchema } from '../domain/fund-transfer';
// Notifications to the backend: verify and parse what cardflow sends (docs/notifications.md).
export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  NotificationSignatureError,
  NotificationTypes,
  SIGNATURE_HEADER,
  STANDARD_WEBHOOK_HEADERS,
  testNotificationHeaders,
  testSignatureHeader,
  type NotificationData,
  type NotificationEvent,
  type NotificationFormat,
  type NotificationHeaders,
  type NotificationType,
  type VerifyOptions,
} from './notifications';
export { NotificationEventSchema } from '../domain/notifications';

/**
 * What the activities need, built once by the worker: the provider client and a logger.
 * Activities only reach the provider through these methods, so tests can hand in a stub.
 */
import type { ProviderClient } from '../provider/client';
import type { KeyInput } from '../provider/keys';
import type { CardEntityInput } from '../domain/card-entity';
import type { ReplacedCardOutcome } from '../domain/card-reissue';
import type { FileStore } from '../platform/storage/file-store';
import type { NotificationDeps } from './notifications';
import type { RouteStore } from '../platform/storage/route-store';
import type { ReferenceStore } from '../platform/storage/reference-store';
import type { ReferenceReader } from '../provider/reference-lists';

type ReferenceReaderMethod = keyof ReferenceReader;
import type { RateGate } from './rate-gate';
import type { ReconcilePort } from './reconciliation/temporal-port';

/** The provider methods the activities call. */
export type ProviderPort = Pick<
  ProviderClient,
  | 'listCardTypes'
  | 'createCardholder'
  | 'updateCardholder'
  | 'createCardholderIdv'
  | 'updateCardholderIdv'
  | 'queryCardholders'
  | 'createCard'
  | 'getCardInfo'
  | 'depositCard'
  | 'listCardTransactions'
  | 'getAccountInfo'
  | 'getAccount'
  | 'transferFunds'
  | 'listLedgerEntries'
  // Card lifecycle: activation, work orders, card operations, accounts, wallet.
  | 'listCard3dsRecords'
  | 'activatePhysicalCard'
  | 'uploadFile'
  | 'submitWorkOrder'
  | 'listWorkOrders'
  | 'freezeCard'
  | 'unfreezeCard'
  | 'updatePin'
  | 'createSharedAccount'
  | 'listCoins'
  | 'listWalletAddresses'
  | 'createWalletAddress'
  | 'listWalletTransactions'
  // Reconciliation: the authorizations behind the provider's fees.
  | 'listCardAuthTransactions'
  // The card entity's catch-up: fee records it may have missed.
  | 'listCardAuthFees'
  // The reference data's refresh (activities/reference-data.ts).
  | ReferenceReaderMethod
>;

/**
 * Starts the workflow that follows a card for its whole life (`cardEntity`), unless it runs
 * already.
 */
export interface CardEntityPort {
  follow(input: CardEntityInput): Promise<void>;
  /**
   * Freezes the card through its workflow's `freeze` Update (started if it does not run), keyed
   * by `requestId`; a card already frozen, blocked or cancelled is reported, not frozen again.
   */
  freeze(cardNo: string, requestId: string): Promise<ReplacedCardOutcome>;
}

/** Structured logger; never pass personal data or card numbers in `fields`. */
export interface ActivityLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface ActivityDeps {
  provider: ProviderPort;
  /** Defaults to the activity context's logger (which adds workflow and attempt ids). */
  logger?: ActivityLogger;
  /**
   * Opens sealed PINs and provider-encrypted values (activation codes); required by the lifecycle
   * activities that need it.
   */
  merchantPrivateKey?: KeyInput;
  /**
   * Where work-order supporting files referenced by `{ ref }` are read, and their uploads recorded.
   */
  fileStore?: FileStore;
  /**
   * Where a card made by createCard gets its own workflow; the worker provides it
   * (workers/card-entity-port.ts).
   */
  cardEntities?: CardEntityPort;
  /**
   * Temporal as reconciliation reads and signals it; the worker provides it
   * (workers/reconciliation-temporal.ts).
   */
  reconciliation?: ReconcilePort;
  /**
   * The gate the quick re-probes of a probe that could not ask go through
   * (activities/long-poll.ts): the worker gives the probe budget's rate (workers/create-worker.ts);
   * default unlimited.
   */
  reprobes?: RateGate;
  /**
   * The merchant backend's endpoint, its signing secret and the undelivered store, when
   * CARDFLOW_NOTIFY_URL is set (activities/notifications.ts); absent, workflows emit nothing.
   */
  notifications?: NotificationDeps;
  /**
   * Where the mutations record the route of their merchantOrderNo (and the cardholder and deposit
   * activities their holderId and address) before calling the provider, for the webhook receiver
   * (platform/storage/route-store.ts); the worker gives the configured store, which
   * reconciliation's re-delivery also reads. Absent: no routes (unit tests).
   */
  routes?: RouteStore;
  /**
   * Where the refresh stores the provider's reference data (platform/storage/reference-store.ts);
   * the worker gives the configured store. Absent: the refresh fails, naming it.
   */
  referenceStore?: ReferenceStore;
}

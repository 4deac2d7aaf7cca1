/**
 * What the activities need, built once by the worker: the provider client and a logger.
 * Activities only reach the provider through these methods, so tests can hand in a stub.
 */
import type { ProviderClient } from '../api/client';

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
>;

/** Structured logger; never pass personal data or card numbers in `fields`. */
export interface ActivityLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface ActivityDeps {
  provider: ProviderPort;
  /** Defaults to the activity context's logger (which adds workflow and attempt ids). */
  logger?: ActivityLogger;
}

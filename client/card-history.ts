/**
 * A card's whole history, read straight from the provider (spec: Card records), for a backend that
 * answers "what happened on my card": its authorizations, its operation records (create, deposit,
 * freeze, withdraw, cancel...), its authorization fees and its 3DS records. Each is an async
 * iterator that walks the provider's pages (at most 100 records a page) as the caller reads, as
 * stripe-node's auto-pagination does. Reads only: no workflow, no Temporal action. A 3DS record is
 * returned without its `values` (the code or link, encrypted for the cardholder alone).
 */
import { paginatePages } from '../provider/paginate';
import type { ProviderClient } from '../provider/client';
import { PAGE_SIZE_MAX } from '../provider/rules';
import type { CardOperationRecord } from '../provider/schemas/card';
import type { Card3dsRecord, CardAuthFeeRecord, CardAuthTransaction } from '../provider/schemas/card-records';
import { cardNoField } from '../domain/fields';
import { parseField, refuse } from './inputs';

/** The provider calls these reads make. */
export type CardHistoryProvider = Pick<
  ProviderClient,
  'listCardAuthTransactions' | 'listCardTransactions' | 'listCardAuthFees' | 'listCard3dsRecords'
>;

export interface CardHistoryOptions {
  /** Records at or after this time (ms since epoch, the provider's clock). */
  startTime?: number;
  /** Records before this time (ms since epoch). */
  endTime?: number;
  /** Records per provider page, 1 to 100; default 100. */
  pageSize?: number;
  signal?: AbortSignal;
}

/** A 3DS record as cardflow hands it out: everything but its encrypted `values`. */
export type Card3dsSummary = Omit<Card3dsRecord, 'values'>;

function query(cardNo: string, opts: CardHistoryOptions) {
  const valid = parseField(cardNoField, 'cardNo', cardNo);
  const pageSize = opts.pageSize ?? PAGE_SIZE_MAX;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > PAGE_SIZE_MAX)
    refuse('card history', 'pageSize', `must be a whole number from 1 to ${PAGE_SIZE_MAX}`);
  return {
    cardNo: valid,
    pageSize,
    ...(opts.startTime === undefined ? {} : { startTime: opts.startTime }),
    ...(opts.endTime === undefined ? {} : { endTime: opts.endTime }),
  };
}

const callOptions = (opts: CardHistoryOptions) => (opts.signal ? { signal: opts.signal } : {});

/** The card's authorizations (auth, refund, verification, Void, maintain_fee), page after page. */
export function cardAuthorizations(
  provider: CardHistoryProvider,
  cardNo: string,
  opts: CardHistoryOptions = {},
): AsyncGenerator<CardAuthTransaction, void, undefined> {
  const q = query(cardNo, opts);
  return paginatePages((pageNum) => provider.listCardAuthTransactions({ ...q, pageNum }, callOptions(opts)));
}

/** The card's operation records (create, deposit, freeze, unfreeze, withdraw, cancel...). */
export function cardOperations(
  provider: CardHistoryProvider,
  cardNo: string,
  opts: CardHistoryOptions = {},
): AsyncGenerator<CardOperationRecord, void, undefined> {
  const q = query(cardNo, opts);
  return paginatePages((pageNum) => provider.listCardTransactions({ ...q, pageNum }, callOptions(opts)));
}

/** The card's authorization fees (authorization, cross-border, refusal fees). */
export function cardFees(
  provider: CardHistoryProvider,
  cardNo: string,
  opts: CardHistoryOptions = {},
): AsyncGenerator<CardAuthFeeRecord, void, undefined> {
  const q = query(cardNo, opts);
  return paginatePages((pageNum) => provider.listCardAuthFees({ ...q, pageNum }, callOptions(opts)));
}

/** The card's 3DS records (codes, authorization links, activation codes), without their values. */
export async function* card3dsRecords(
  provider: CardHistoryProvider,
  cardNo: string,
  opts: CardHistoryOptions = {},
): AsyncGenerator<Card3dsSummary, void, undefined> {
  const q = query(cardNo, opts);
  const records = paginatePages((pageNum) => provider.listCard3dsRecords({ ...q, pageNum }, callOptions(opts)));
  for await (const record of records) {
    const { values: _encrypted, ...summary } = record;
    yield summary;
  }
}

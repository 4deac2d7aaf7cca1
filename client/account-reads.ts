/**
 * The merchant's accounts, their balances and their ledger, and cardholder lookup, read straight
 * from the provider (spec: Account; Cardholder query) for a backend: each an async iterator over
 * the provider's pages (accounts at most 10 a page, the rest at most 100), as stripe-node's
 * auto-pagination. The ledger takes at most 30 days a query (spec: Limits), so a longer range is
 * walked in 30-day slices, oldest first. Reads only: no workflow, no Temporal action.
 */
import { paginatePages } from '../provider/paginate';
import type { ProviderClient } from '../provider/client';
import { ACCOUNT_PAGE_SIZE_MAX, DAY_MS, LEDGER_RANGE_DAYS, PAGE_SIZE_MAX } from '../provider/rules';
import type { Account, LedgerEntry } from '../provider/schemas/account';
import type { CardholderQueryRecord } from '../provider/schemas/cardholder';
import { refuse } from './inputs';

export type AccountReadsProvider = Pick<ProviderClient, 'listAccounts' | 'listLedgerEntries' | 'queryCardholders'>;

const callOptions = (signal?: AbortSignal) => (signal ? { signal } : {});

/** Every account of the merchant with its balances (optionally of one type), page after page. */
export function listAccounts(
  provider: AccountReadsProvider,
  opts: { type?: Account['accountType']; signal?: AbortSignal } = {},
): AsyncGenerator<Account, void, undefined> {
  const filter = opts.type ? { type: opts.type } : {};
  return paginatePages((pageNum) =>
    provider.listAccounts({ ...filter, pageNum, pageSize: ACCOUNT_PAGE_SIZE_MAX }, callOptions(opts.signal)),
  );
}

export interface LedgerQuery {
  /** Entries at or after this time (ms since epoch, the provider's clock). */
  startTime: number;
  /** Entries before this time; default now. */
  endTime?: number;
  accountId?: string;
  bizType?: LedgerEntry['bizType'];
  signal?: AbortSignal;
}

/** The ledger entries of `query`'s range, 30-day slice after slice, each page after page. */
export async function* accountLedger(
  provider: AccountReadsProvider,
  query: LedgerQuery,
): AsyncGenerator<LedgerEntry, void, undefined> {
  const end = query.endTime ?? Date.now();
  if (!Number.isInteger(query.startTime) || query.startTime < 0)
    refuse('ledger query', 'startTime', 'must be a time in ms since the epoch');
  if (!Number.isInteger(end) || end < query.startTime)
    refuse('ledger query', 'endTime', 'must be a time in ms since the epoch, not before startTime');
  const filter = {
    ...(query.accountId ? { accountId: query.accountId } : {}),
    ...(query.bizType ? { bizType: query.bizType } : {}),
  };
  const slice = LEDGER_RANGE_DAYS * DAY_MS;
  for (let from = query.startTime; from < end; from += slice) {
    const to = Math.min(end, from + slice);
    yield* paginatePages((pageNum) =>
      provider.listLedgerEntries(
        { ...filter, startTime: from, endTime: to, pageNum, pageSize: PAGE_SIZE_MAX },
        callOptions(query.signal),
      ),
    );
  }
}

export interface CardholderLookup {
  holderId?: string;
  email?: string;
  areaCode?: string;
  mobile?: string;
  merchantOrderNo?: string;
  signal?: AbortSignal;
}

/**
 * The cardholders matching `lookup` (by id, email, phone or the merchantOrderNo that made them).
 */
export function findCardholders(
  provider: AccountReadsProvider,
  lookup: CardholderLookup,
): AsyncGenerator<CardholderQueryRecord, void, undefined> {
  const { signal, ...filter } = lookup;
  if (Object.values(filter).every((v) => v === undefined || v === ''))
    refuse('cardholder lookup', 'holderId', 'give a holderId, email, mobile or merchantOrderNo to look up');
  return paginatePages((pageNum) =>
    provider.queryCardholders({ ...filter, pageNum, pageSize: PAGE_SIZE_MAX }, callOptions(signal)),
  );
}

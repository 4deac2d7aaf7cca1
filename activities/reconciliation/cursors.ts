/**
 * Where reconciliation reads next: the run's window, the cursor through the sources
 * (RECONCILE_SOURCES, in order) and their slices. Ledger queries cover at most 30 days and wallet
 * transaction queries at most 90 (spec, Limits), so those sources are read newest slice first.
 */
import { DAY_MS, LEDGER_RANGE_DAYS, WALLET_TX_RANGE_DAYS } from '../../provider/rules';
import {
  RECONCILE_SOURCES,
  type AccountReconciliation,
  type Finding,
  type ReconcileConfig,
  type ReconcileCursor,
  type ReconcileSource,
} from '../../domain/reconciliation';
import type { ProviderPort } from '../deps';

/** Pages read per activity call: 5 × 100 records, then the workflow records the cursor. */
export const PAGES_PER_STEP = 5;

export interface ReconcileWindow {
  start: number;
  end: number;
}

/** What one step read and found, and where the next one starts (none: every source is done). */
export interface ReconcileStep {
  findings: Finding[];
  source: ReconcileSource;
  read: number;
  providerCalls: number;
  next?: ReconcileCursor;
  /** A ledger account whose entries were all read in this step. */
  account?: AccountReconciliation;
}

const RANGE_DAYS: Partial<Record<ReconcileSource, number>> = {
  ledger: LEDGER_RANGE_DAYS,
  walletTransactions: WALLET_TX_RANGE_DAYS,
};

/** The first slice of a source: the newest part of the window, at most the source's query range. */
export function firstSlice(
  source: ReconcileSource,
  start: number,
  end: number,
): Pick<ReconcileCursor, 'sliceStart' | 'sliceEnd'> {
  const days = RANGE_DAYS[source];
  return { sliceStart: days === undefined ? start : Math.max(start, end - days * DAY_MS), sliceEnd: end };
}

/**
 * Card operations are read from this far before the window: one accepted then may have settled (or
 * stuck) since.
 */
export function ordersStart(window: ReconcileWindow, config: ReconcileConfig): number {
  return window.start - config.operationSlaMs;
}

/** Where a run starts: the newest slice of the card operations. */
export function firstCursor(window: ReconcileWindow, config: ReconcileConfig): ReconcileCursor {
  return {
    source: 'cardOperations',
    pageNum: 1,
    ...firstSlice('cardOperations', ordersStart(window, config), window.end),
  };
}

/** The cursor after `cursor`'s source is done: its next slice, else the next source's start. */
export async function afterSource(
  provider: ProviderPort,
  cursor: ReconcileCursor,
  window: ReconcileWindow,
  config: ReconcileConfig,
): Promise<ReconcileCursor | undefined> {
  const start = cursor.source === 'cardOperations' ? ordersStart(window, config) : window.start;
  if (RANGE_DAYS[cursor.source] !== undefined && cursor.sliceStart > start) {
    return { ...cursor, pageNum: 1, ...firstSlice(cursor.source, start, cursor.sliceStart - 1) };
  }
  const index = RECONCILE_SOURCES.indexOf(cursor.source);
  const source = RECONCILE_SOURCES[index + 1];
  if (!source) return undefined;
  if (source === 'ledger') {
    const accounts = await provider.getAccountInfo();
    const accountIds = accounts.map((a) => a.accountId);
    if (!accountIds.length) return undefined;
    return { source, pageNum: 1, ...firstSlice(source, window.start, window.end), ledger: { accountIds } };
  }
  return { source, pageNum: 1, ...firstSlice(source, window.start, window.end) };
}

/** The step that ends the ledger's current account: the next account's first slice, if any. */
export function nextAccount(
  cursor: ReconcileCursor,
  window: ReconcileWindow,
  findings: Finding[],
  read: number,
  calls: number,
): ReconcileStep {
  const rest = cursor.ledger!.accountIds.slice(1);
  const base = { findings, source: 'ledger' as const, read, providerCalls: calls };
  if (!rest.length) return base;
  return {
    ...base,
    next: {
      source: 'ledger',
      pageNum: 1,
      ...firstSlice('ledger', window.start, window.end),
      ledger: { accountIds: rest },
    },
  };
}

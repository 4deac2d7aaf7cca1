/**
 * The order sources (card operations, cardholders, work orders, wallet transactions) read a page
 * at a time, each order judged against its owner as it is read (judging.ts).
 */
import { CardholderEventSchema } from '../../provider/schemas/cardholder';
import { PAGE_SIZE_MAX } from '../../provider/rules';
import { FailureTypes } from '../../domain/failure-types';
import { retryable } from '../../domain/failures';
import type { Finding, ReconcileConfig, ReconcileCursor, ReconcileSource } from '../../domain/reconciliation';
import type { ProviderOrder } from '../../domain/reconciliation-rules';
import type { ProviderPort } from '../deps';
import { reportProgress } from '../heartbeats';
import type { ReconcilePort } from './temporal-port';
import { afterSource, PAGES_PER_STEP, type ReconcileStep, type ReconcileWindow } from './cursors';
import { judgeOrders } from './judging';

/** One page of an order source: the orders judged, the records read and the provider's total. */
interface OrderPage {
  orders: ProviderOrder[];
  count: number;
  total: number;
}

type PageReader = (provider: ProviderPort, cursor: ReconcileCursor, window: ReconcileWindow) => Promise<OrderPage>;

/** How one order source is read and what of it is judged. */
interface OrderSource<R> {
  /**
   * One page: `slice` is the cursor's time slice, which the sources the provider lists by time
   * (card operations, wallet transactions) are read by and the others ignore.
   */
  read: (
    provider: ProviderPort,
    paging: { pageNum: number; pageSize: number },
    slice: { startTime: number; endTime: number },
  ) => Promise<{ records: R[]; total: string }>;
  /**
   * Whether a record is judged (default: every one). A source the provider cannot list by time
   * is read whole, and only what changed within the window or is still open is judged.
   */
  judged?: (record: R, window: ReconcileWindow) => boolean;
  order: (record: R) => ProviderOrder;
}

function pageReader<R>(source: OrderSource<R>): PageReader {
  return async (provider, cursor, window) => {
    const page = await source.read(
      provider,
      { pageNum: cursor.pageNum, pageSize: PAGE_SIZE_MAX },
      { startTime: cursor.sliceStart, endTime: cursor.sliceEnd },
    );
    const judged = source.judged;
    const records = judged ? page.records.filter((record) => judged(record, window)) : page.records;
    return { orders: records.map(source.order), count: page.records.length, total: Number(page.total) };
  };
}

/** Every source but the ledger (ledger.ts), which is walked per account. */
const ORDER_SOURCES: Partial<Record<ReconcileSource, PageReader>> = {
  cardOperations: pageReader({
    read: (provider, paging, slice) => provider.listCardTransactions({ ...paging, ...slice }),
    order: (record) => ({ event: { category: 'card_transaction', record }, time: record.transactionTime }),
  }),
  cardholders: pageReader({
    read: (provider, paging) => provider.queryCardholders(paging),
    judged: (h, window) => h.updateTime >= window.start || h.status === 'wait_audit' || h.status === 'under_review',
    // The review result and its time only, as a webhook carries them: names, e-mails and phone
    // numbers go no further.
    order: (h) => ({ event: { category: 'card_holder', record: CardholderEventSchema.parse(h) }, time: h.updateTime }),
  }),
  workOrders: pageReader({
    read: (provider, paging) => provider.listWorkOrders(paging),
    judged: (w, window) =>
      w.updateTime >= window.start || w.tradeStatus === 'wait_process' || w.tradeStatus === 'processing',
    order: (record) => ({ event: { category: 'work', record }, time: record.updateTime }),
  }),
  walletTransactions: pageReader({
    read: (provider, paging, slice) => provider.listWalletTransactions({ ...paging, ...slice }),
    // No merchantOrderNo: judged for a stuck status (an on-chain funding may rightly wait for more)
    // and, credited, against the fundings of its address for one that came after they ended
    // (judging.ts).
    order: (record) => ({ event: { category: 'wallet_transaction_v2', record }, time: record.updateTime }),
  }),
} satisfies Record<Exclude<ReconcileSource, 'ledger'>, PageReader>;

/** Reads one page of an order source. */
export async function orderPage(
  provider: ProviderPort,
  cursor: ReconcileCursor,
  window: ReconcileWindow,
): Promise<OrderPage> {
  const read = ORDER_SOURCES[cursor.source];
  if (!read) throw retryable(FailureTypes.unexpected, `not an order source: ${cursor.source}`);
  return read(provider, cursor, window);
}

/** Reads up to {@link PAGES_PER_STEP} pages of an order source from the cursor and judges them. */
export async function orderStep(
  provider: ProviderPort,
  port: () => ReconcilePort,
  cursor: ReconcileCursor,
  window: ReconcileWindow,
  config: ReconcileConfig,
): Promise<ReconcileStep> {
  const findings: Finding[] = [];
  let read = 0;
  let calls = 0;
  let pageNum = cursor.pageNum;
  for (let i = 0; i < PAGES_PER_STEP; i++) {
    const page = await orderPage(provider, { ...cursor, pageNum }, window);
    calls += 1;
    read += page.count;
    findings.push(...(await judgeOrders(provider, port, page.orders, config)));
    reportProgress({ source: cursor.source, pageNum });
    const done = page.count < PAGE_SIZE_MAX || pageNum * PAGE_SIZE_MAX >= page.total;
    if (done) {
      const next = await afterSource(provider, cursor, window, config);
      return { findings, source: cursor.source, read, providerCalls: calls, ...(next ? { next } : {}) };
    }
    pageNum += 1;
  }
  return { findings, source: cursor.source, read, providerCalls: calls, next: { ...cursor, pageNum } };
}

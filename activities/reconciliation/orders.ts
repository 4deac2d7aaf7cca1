/**
 * The order sources (card operations, cardholders, work orders, wallet transactions) read a page
 * at a time, each order judged against its owner as it is read (judging.ts).
 */
import { CardholderSchema } from '../../api/schemas/cardholder';
import { PAGE_SIZE_MAX } from '../../api/rules';
import type { Finding, ReconcileConfig, ReconcileCursor } from '../../domain/reconciliation';
import type { ProviderOrder } from '../../domain/reconciliation-rules';
import type { ProviderPort } from '../deps';
import { reportProgress } from '../heartbeats';
import type { ReconcilePort } from '../reconciliation-port';
import { afterSource, PAGES_PER_STEP, type ReconcileStep, type ReconcileWindow } from './cursors';
import { judgeOrders } from './judging';

/** Reads one page of an order source; `records` are the page's orders, `full` whether more may follow. */
export async function orderPage(
  provider: ProviderPort,
  cursor: ReconcileCursor,
  window: ReconcileWindow,
): Promise<{ orders: ProviderOrder[]; count: number; total: number }> {
  const paging = { pageNum: cursor.pageNum, pageSize: PAGE_SIZE_MAX };
  switch (cursor.source) {
    case 'cardOperations': {
      const page = await provider.listCardTransactions({
        ...paging,
        startTime: cursor.sliceStart,
        endTime: cursor.sliceEnd,
      });
      const orders = page.records.map((record) => ({
        event: { category: 'card_transaction' as const, record },
        time: record.transactionTime,
      }));
      return { orders, count: page.records.length, total: Number(page.total) };
    }
    case 'cardholders': {
      const page = await provider.queryCardholders(paging);
      // The review result only (CardholderSchema): names, e-mails and phone numbers go no further.
      const orders = page.records
        .filter((h) => h.updateTime >= window.start || h.status === 'wait_audit' || h.status === 'under_review')
        .map((h) => ({
          event: { category: 'card_holder' as const, record: CardholderSchema.parse(h) },
          time: h.updateTime,
        }));
      return { orders, count: page.records.length, total: Number(page.total) };
    }
    case 'workOrders': {
      const page = await provider.listWorkOrders(paging);
      const orders = page.records
        .filter(
          (w) => w.updateTime >= window.start || w.tradeStatus === 'wait_process' || w.tradeStatus === 'processing',
        )
        .map((record) => ({ event: { category: 'work' as const, record }, time: record.updateTime }));
      return { orders, count: page.records.length, total: Number(page.total) };
    }
    case 'walletTransactions': {
      const page = await provider.listWalletTransactions({
        ...paging,
        startTime: cursor.sliceStart,
        endTime: cursor.sliceEnd,
      });
      // No merchantOrderNo: judged for a stuck status only (an on-chain funding may rightly wait for more).
      const orders = page.records.map((record) => ({
        event: { category: 'wallet_transaction_v2' as const, record },
        time: record.updateTime,
      }));
      return { orders, count: page.records.length, total: Number(page.total) };
    }
    default:
      throw new Error(`not an order source: ${cursor.source}`);
  }
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
    findings.push(...(await judgeOrders(port, page.orders, config)));
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

/**
 * Reconciliation's provider reads, a few pages per activity call: the workflow carries only the
 * cursor and the findings, never the records, so its history grows with the number of calls, not
 * of orders. Every query stays within the spec's limits (Limits): pageSize at most 100, ledger
 * queries at most 30 days, wallet transaction queries at most 90 days.
 *
 * Repairs are re-deliveries only: a missed event goes to its workflow as the signal its webhook
 * would have sent (`routeEvent` + the receiver's forwarder, behind the port); nothing here mutates
 * anything at the provider.
 */
import { activityInfo } from '@temporalio/activity';
import { add, money, sub } from '../api/money';
import type { Account, LedgerEntry } from '../api/schemas/account';
import type { CardOperationRecord } from '../api/schemas/card';
import { CardholderSchema } from '../api/schemas/cardholder';
import { DAY_MS, LEDGER_RANGE_DAYS, PAGE_SIZE_MAX, WALLET_TX_RANGE_DAYS } from '../api/rules';
import {
  FINDING_KINDS,
  RECONCILE_SOURCES,
  type AccountReconciliation,
  type Finding,
  type LedgerChain,
  type ReconcileConfig,
  type ReconcileCursor,
  type ReconcileSource,
} from '../domain/reconciliation';
import {
  AUTHORIZATION_BIZ_TYPES,
  CARD_OPERATION_BIZ_TYPES,
  balanceFindings,
  explainLedgerEntry,
  isCardflowOrderNo,
  judgeOrder,
  merchantOrderNoOf,
  signedAmount,
  walkLedger,
  type OwnerRun,
  type ProviderOrder,
} from '../domain/reconciliation-rules';
import { orderKeys } from '../domain/merchant-order-no';
import { WorkflowTypes } from '../domain/workflow-types';
import type { ActivityDeps } from './deps';
import { FailureTypes } from '../domain/failure-types';
import { convertingFailures, nonRetryable } from './failures';
import { reportProgress } from './heartbeats';
import type { ReconcilePort } from './reconciliation-port';

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
function firstSlice(
  source: ReconcileSource,
  start: number,
  end: number,
): Pick<ReconcileCursor, 'sliceStart' | 'sliceEnd'> {
  const days = RANGE_DAYS[source];
  return { sliceStart: days === undefined ? start : Math.max(start, end - days * DAY_MS), sliceEnd: end };
}

/** Card operations are read from this far before the window: one accepted then may have settled (or stuck) since. */
function ordersStart(window: ReconcileWindow, config: ReconcileConfig): number {
  return window.start - config.operationSlaMs;
}

function missingPort(): never {
  throw nonRetryable(
    FailureTypes.reconciliationNotConfigured,
    'reconciliation needs the Temporal port the worker provides (activityDeps.reconciliation)',
  );
}

export function createReconciliationActivities(deps: ActivityDeps) {
  const { provider } = deps;
  const port = (): ReconcilePort => deps.reconciliation ?? missingPort();

  /**
   * Per paying account (`''`: the merchant WALLET): what running workflows will still take. A card
   * creation or deposit whose order is at the provider already holds or spent its money (it shows
   * in the balance), and an onboarding whose card child runs spends through that child: neither
   * counts twice.
   */
  async function pendingCommitments(taskQueue: string): Promise<Record<string, string>> {
    const commitments: Record<string, string> = {};
    for (const spender of await port().runningSpenders(taskQueue)) {
      if (spender.spendsThroughChild) continue;
      const key =
        spender.workflowType === WorkflowTypes.cardIssuance
          ? orderKeys.cardIssuance(spender.workflowId).create
          : spender.workflowType === WorkflowTypes.cardDeposit
            ? orderKeys.cardDeposit(spender.workflowId).deposit
            : undefined;
      if (key) {
        const sent = await provider.listCardTransactions({ pageNum: 1, pageSize: 10, merchantOrderNo: key });
        if (sent.records.length) continue;
      }
      const account = spender.accountId ?? '';
      commitments[account] = add(commitments[account] ?? '0', spender.amount);
    }
    return commitments;
  }

  /** Judges a page of orders against their owners; re-delivers the missed events. */
  async function judgeOrders(orders: readonly ProviderOrder[], config: ReconcileConfig): Promise<Finding[]> {
    const keys = [...new Set(orders.map((o) => merchantOrderNoOf(o.event)).filter(isCardflowOrderNo))];
    const owners: Record<string, OwnerRun[]> = keys.length ? await port().ownersOf(keys) : {};
    const now = Date.now();
    const findings: Finding[] = [];
    for (const order of orders) {
      const key = merchantOrderNoOf(order.event);
      const verdict = judgeOrder(order, key ? (owners[key] ?? []) : [], now, config);
      if (!verdict.finding) continue;
      if (!verdict.redeliver) {
        findings.push(verdict.finding);
        continue;
      }
      const event = { ...order.event, requestId: `reconcile-${key ?? 'order'}-${now}` };
      const signalled = await port().redeliver(event);
      findings.push(
        signalled.length
          ? { ...verdict.finding, repaired: true, action: `re-delivered to ${signalled.join(', ')}` }
          : { ...verdict.finding, action: `${verdict.finding.action}: no running owner took it; check the workflow` },
      );
    }
    return findings;
  }

  /** Reads one page of an order source; `records` are the page's orders, `full` whether more may follow. */
  async function orderPage(
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

  /** The cursor after `cursor`'s source is done: its next slice, else the next source's start. */
  async function afterSource(
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

  async function orderStep(
    cursor: ReconcileCursor,
    window: ReconcileWindow,
    config: ReconcileConfig,
  ): Promise<ReconcileStep> {
    const findings: Finding[] = [];
    let read = 0;
    let calls = 0;
    let pageNum = cursor.pageNum;
    for (let i = 0; i < PAGES_PER_STEP; i++) {
      const page = await orderPage({ ...cursor, pageNum }, window);
      calls += 1;
      read += page.count;
      findings.push(...(await judgeOrders(page.orders, config)));
      reportProgress({ source: cursor.source, pageNum });
      const done = page.count < PAGE_SIZE_MAX || pageNum * PAGE_SIZE_MAX >= page.total;
      if (done) {
        const next = await afterSource(cursor, window, config);
        return { findings, source: cursor.source, read, providerCalls: calls, ...(next ? { next } : {}) };
      }
      pageNum += 1;
    }
    return { findings, source: cursor.source, read, providerCalls: calls, next: { ...cursor, pageNum } };
  }

  /** The provider's card operations and authorizations the entries of a page name, read in few calls. */
  async function ledgerContext(entries: readonly LedgerEntry[], config: ReconcileConfig) {
    let calls = 0;
    const operations = new Map<string, CardOperationRecord>();
    const cardEntries = entries.filter((e) => (CARD_OPERATION_BIZ_TYPES as readonly string[]).includes(e.bizType));
    if (cardEntries.length) {
      // An operation's record carries its creation time; its ledger entry is written when it settles.
      const times = cardEntries.map((e) => e.createTime);
      const range = { startTime: Math.min(...times) - config.operationSlaMs, endTime: Math.max(...times) };
      const wanted = new Set(cardEntries.map((e) => e.orderNo));
      // Both lists are newest first, so the first pages of the range hold the page's operations.
      for (let pageNum = 1; pageNum <= PAGES_PER_STEP; pageNum++) {
        const page = await provider.listCardTransactions({ pageNum, pageSize: PAGE_SIZE_MAX, ...range });
        calls += 1;
        for (const record of page.records) operations.set(record.orderNo, record);
        if (page.records.length < PAGE_SIZE_MAX || [...wanted].every((no) => operations.has(no))) break;
      }
      for (const orderNo of wanted) {
        if (operations.has(orderNo)) continue;
        const page = await provider.listCardTransactions({ pageNum: 1, pageSize: 10, orderNo });
        calls += 1;
        for (const record of page.records) operations.set(record.orderNo, record);
      }
    }
    const authorizations = new Set<string>();
    const tradeNos = new Set(
      entries.filter((e) => (AUTHORIZATION_BIZ_TYPES as readonly string[]).includes(e.bizType)).map((e) => e.orderNo),
    );
    for (const tradeNo of tradeNos) {
      const page = await provider.listCardAuthTransactions({ pageNum: 1, pageSize: 10, tradeNo });
      calls += 1;
      if (page.records.length) authorizations.add(tradeNo);
    }
    return {
      calls,
      context: {
        cardOperation: (orderNo: string) => operations.get(orderNo),
        authorizationKnown: (tradeNo: string) => authorizations.has(tradeNo),
      },
    };
  }

  /** The account's total balance at the window's end: today's minus what entries after the end moved. */
  async function balanceAtEnd(account: Account, end: number): Promise<{ balance: string; calls: number }> {
    let after = '0';
    let calls = 0;
    const now = Math.max(Date.now(), end + 1);
    // Entries since the window's end, in slices of at most 30 days (spec, Limits), oldest slice first.
    for (let from = end + 1; from <= now; from += LEDGER_RANGE_DAYS * DAY_MS) {
      const to = Math.min(now, from + LEDGER_RANGE_DAYS * DAY_MS - 1);
      for (let pageNum = 1; ; pageNum++) {
        const page = await provider.listLedgerEntries({
          pageNum,
          pageSize: PAGE_SIZE_MAX,
          accountId: account.accountId,
          startTime: from,
          endTime: to,
        });
        calls += 1;
        for (const entry of page.records) after = add(after, signedAmount(entry));
        if (page.records.length < PAGE_SIZE_MAX) break;
      }
    }
    // At the account's own precision, as the provider states its balances.
    return { balance: money(sub(account.totalBalance, after)).toFixed(account.digital), calls };
  }

  async function ledgerStep(
    cursor: ReconcileCursor,
    window: ReconcileWindow,
    config: ReconcileConfig,
  ): Promise<ReconcileStep> {
    const ledger = cursor.ledger!;
    const accountId = ledger.accountIds[0]!;
    let calls = 0;
    let current = ledger.current;
    if (!current) {
      const accounts = await provider.getAccountInfo();
      calls += 1;
      const account = accounts.find((a) => a.accountId === accountId);
      if (!account) return nextAccount(cursor, window, [], 0, calls);
      const atEnd = await balanceAtEnd(account, window.end);
      calls += atEnd.calls;
      current = {
        summary: {
          accountId,
          accountType: account.accountType,
          currency: account.currency,
          entries: 0,
          cardflow: 0,
          provider: 0,
          external: 0,
          providerBalance: atEnd.balance,
          availableBalance: account.availableBalance,
        },
        chain: { expectedAfter: atEnd.balance, delta: '0' },
      };
    }
    const findings: Finding[] = [];
    let read = 0;
    let pageNum = cursor.pageNum;
    let chain: LedgerChain = current.chain;
    const summary = { ...current.summary };
    for (let i = 0; i < PAGES_PER_STEP; i++) {
      const page = await provider.listLedgerEntries({
        pageNum,
        pageSize: PAGE_SIZE_MAX,
        accountId,
        startTime: cursor.sliceStart,
        endTime: cursor.sliceEnd,
      });
      calls += 1;
      read += page.records.length;
      const explained = await ledgerContext(page.records, config);
      calls += explained.calls;
      for (const entry of page.records) {
        const how = explainLedgerEntry(entry, explained.context);
        summary.entries += 1;
        if (how === 'cardflow' || how === 'provider' || how === 'external') summary[how] += 1;
        if (how === 'external' || how === 'unexplained') findings.push(ledgerFinding(entry, how));
      }
      const walked = walkLedger(page.records, chain);
      chain = walked.chain;
      for (const { entry, problem } of walked.breaks) {
        findings.push({
          kind: FINDING_KINDS.balanceMismatch,
          ids: { accountId, txId: entry.txId, orderNo: entry.orderNo },
          detail: `ledger entry ${entry.txId} (${entry.bizType}) ${problem}`,
          action: 'ask the provider to explain the account statement; cardflow changed nothing',
          amount: entry.amount,
          ...(entry.currency ? { currency: entry.currency } : {}),
        });
      }
      reportProgress({ source: 'ledger', accountId, pageNum });
      if (page.records.length < PAGE_SIZE_MAX || pageNum * PAGE_SIZE_MAX >= Number(page.total)) {
        // This slice is done: an older one of the window, or the account is.
        if (cursor.sliceStart > window.start) {
          const older = firstSlice('ledger', window.start, cursor.sliceStart - 1);
          return {
            findings,
            source: 'ledger',
            read,
            providerCalls: calls,
            next: { ...cursor, pageNum: 1, ...older, ledger: { ...ledger, current: { summary, chain } } },
          };
        }
        // The digits the provider balance is stated with (the account's `digital`), trailing zeros included.
        const digits = summary.providerBalance.split('.')[1]?.length ?? 0;
        summary.openingBalance = money(chain.expectedAfter).toFixed(digits);
        summary.recomputedBalance = money(add(chain.expectedAfter, chain.delta)).toFixed(digits);
        const step = nextAccount(cursor, window, findings, read, calls);
        return { ...step, account: summary };
      }
      pageNum += 1;
    }
    return {
      findings,
      source: 'ledger',
      read,
      providerCalls: calls,
      next: { ...cursor, pageNum, ledger: { ...ledger, current: { summary, chain } } },
    };
  }

  function nextAccount(
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

  return convertingFailures({
    /**
     * Fixes the run's window (default: from the previous run's end, less the overlap, to now) and
     * where paging starts.
     */
    async beginReconciliation(input: {
      since?: number;
      until?: number;
      config: ReconcileConfig;
    }): Promise<{ window: ReconcileWindow; cursor: ReconcileCursor }> {
      const end = input.until ?? Date.now();
      let start = input.since;
      if (start === undefined) {
        const previous = await port().previousWindowEnd(activityInfo().taskQueue);
        start = previous === undefined ? end - input.config.firstLookbackMs : previous - input.config.overlapMs;
      }
      start = Math.min(start, end);
      const window = { start, end };
      return {
        window,
        cursor: {
          source: 'cardOperations',
          pageNum: 1,
          ...firstSlice('cardOperations', ordersStart(window, input.config), end),
        },
      };
    },

    /** Reads up to {@link PAGES_PER_STEP} pages from the cursor, judges them, repairs missed events. */
    async reconcileStep(input: {
      cursor: ReconcileCursor;
      window: ReconcileWindow;
      config: ReconcileConfig;
    }): Promise<ReconcileStep> {
      return input.cursor.source === 'ledger'
        ? ledgerStep(input.cursor, input.window, input.config)
        : orderStep(input.cursor, input.window, input.config);
    },

    /**
     * Every account's available balance against its floor (WALLET: the merchant wallet's; MARGIN:
     * the shared accounts') and against what running workflows are about to spend from it.
     */
    async checkBalances(input: { config: ReconcileConfig }): Promise<Finding[]> {
      const accounts = await provider.getAccountInfo();
      const commitments = await pendingCommitments(activityInfo().taskQueue);
      const wallet = accounts.find((a) => a.accountType === 'WALLET');
      const findings: Finding[] = [];
      for (const account of accounts) {
        const floor = account.accountType === 'WALLET' ? input.config.walletFloor : input.config.sharedAccountFloor;
        const pending = add(commitments[account.accountId] ?? '0', account === wallet ? (commitments[''] ?? '0') : '0');
        findings.push(...balanceFindings(account, floor, pending));
      }
      return findings;
    },
  });
}

function ledgerFinding(entry: LedgerEntry, how: 'external' | 'unexplained'): Finding {
  const base = {
    ids: { accountId: entry.accountId, txId: entry.txId, orderNo: entry.orderNo },
    amount: entry.amount,
    ...(entry.currency ? { currency: entry.currency } : {}),
  };
  const what = `${entry.bizType} ${entry.direction} ${entry.amount}${entry.currency ? ` ${entry.currency}` : ''} at ${new Date(entry.createTime).toISOString()}`;
  return how === 'external'
    ? {
        ...base,
        kind: FINDING_KINDS.externalLedgerEntry,
        detail: `${what}${entry.remark ? ` (${entry.remark})` : ''}: no cardflow order behind it`,
        action:
          'money moved outside cardflow (dashboard, adjustment, direct API call): confirm it; nothing was changed',
      }
    : {
        ...base,
        kind: FINDING_KINDS.unexplainedLedgerEntry,
        detail: `${what}: order ${entry.orderNo} is not in the provider's card or authorization records`,
        action: 'ask the provider which order this entry belongs to',
      };
}

/**
 * The ledger source: every account's entries in the window, each explained by a cardflow order,
 * a provider order or neither (domain/reconciliation-rules.ts), and the running balance walked
 * back from the provider's balance at the window's end, so a break in the chain is found.
 */
import { add, money, sub } from '../../provider/money';
import type { Account, LedgerEntry } from '../../provider/schemas/account';
import type { CardOperationRecord } from '../../provider/schemas/card';
import { DAY_MS, LEDGER_RANGE_DAYS, PAGE_SIZE_MAX } from '../../provider/rules';
import {
  FINDING_KINDS,
  type Finding,
  type LedgerChain,
  type ReconcileConfig,
  type ReconcileCursor,
} from '../../domain/reconciliation';
import {
  AUTHORIZATION_BIZ_TYPES,
  CARD_OPERATION_BIZ_TYPES,
  explainLedgerEntry,
  signedAmount,
  walkLedger,
} from '../../domain/reconciliation-rules';
import type { ProviderPort } from '../deps';
import { reportProgress } from '../heartbeats';
import { firstSlice, nextAccount, PAGES_PER_STEP, type ReconcileStep, type ReconcileWindow } from './cursors';

/**
 * The provider's card operations and authorizations the entries of a page name, read in few calls.
 */
async function ledgerContext(provider: ProviderPort, entries: readonly LedgerEntry[], config: ReconcileConfig) {
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

/**
 * The account's total balance at the window's end: today's minus what entries after the end moved.
 */
async function balanceAtEnd(
  provider: ProviderPort,
  account: Account,
  end: number,
): Promise<{ balance: string; calls: number }> {
  let after = '0';
  let calls = 0;
  const now = Math.max(Date.now(), end + 1);
  // Entries since the window's end, in slices of at most 30 days (spec, Limits), oldest slice
  // first.
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

/** Reads up to {@link PAGES_PER_STEP} pages of the current account's entries from the cursor. */
export async function ledgerStep(
  provider: ProviderPort,
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
    const atEnd = await balanceAtEnd(provider, account, window.end);
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
    const explained = await ledgerContext(provider, page.records, config);
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
      // The digits the provider balance is stated with (the account's `digital`), trailing zeros
      // included.
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

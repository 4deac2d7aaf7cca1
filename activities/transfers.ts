/**
 * Fund transfers and shared accounts (spec: Account): reading both accounts before a transfer,
 * the transfer itself (idempotent by merchantOrderNo), confirming it in the ledger after it (the
 * operation answers only `true`), and creating a shared (MARGIN) account idempotently by name.
 */
import { cancellationSignal } from '@temporalio/activity';
import type { Account, LedgerEntry } from '../provider/schemas/account';
import { affordabilityIssue } from '../domain/eligibility';
import { FailureTypes } from '../domain/failure-types';
import {
  isTransferEntry,
  TRANSFER_DIRECTIONS,
  transferRemark,
  type LedgerLeg,
  type TransferAccount,
  type TransferType,
} from '../domain/fund-transfer';
import { add, cmp, sub } from '../provider/money';
import { balanceOf, createAccountHelpers } from './accounts';
import { createCardActivities } from './cards';
import { callIdempotent } from './idempotent';
import type { TransferResult } from './types';
import type { SharedAccountResult } from '../domain/shared-account';
import type { ActivityDeps } from './deps';
import { isAmbiguous, isDuplicateOrder, convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import { longPoll, type PollSettings } from './long-poll';
import { notificationPlanOf } from './notifications';
import type { NotificationPlan } from '../domain/notifications';

/** What a transfer into a MARGIN account left there, as the ledger and the account say now. */
export interface UnspentTransfer {
  /** What the card operations it paid for took from the account. */
  charged: string;
  /** The account's available balance now. */
  available: string;
  currency: string;
  /** What a compensation returns: transferred less charged, at most what is available. */
  unspent: string;
}

export interface TransferAccounts {
  payer: TransferAccount & { digital: number };
  payee: TransferAccount & { digital: number };
  /**
   * The worker's notification plan (activities/notifications.ts), read with the accounts for free.
   */
  notifications?: NotificationPlan;
}

function accountOf(a: Account): TransferAccount & { digital: number } {
  return { ...balanceOf(a), digital: a.digital };
}

function legOf(e: LedgerEntry): LedgerLeg {
  return {
    accountId: e.accountId,
    txId: e.txId,
    orderNo: e.orderNo,
    direction: e.direction,
    amount: e.amount,
    beforeBalance: e.beforeBalance,
    afterBalance: e.afterBalance,
  };
}

/** Pages of the ledger read while looking for one transfer (100 entries each). */
const LEDGER_PAGES = 5;

/** The provider reads the transfer activities share: ledger legs, shared accounts, charges. */
function transferReads(deps: ActivityDeps) {
  const { provider } = deps;
  async function findLegs(input: {
    merchantOrderNo: string;
    bizType: 'fund_transfer' | 'fund_collection';
    payerAccountId: string;
    payeeAccountId: string;
  }) {
    const legs: { payer?: LedgerLeg; payee?: LedgerLeg } = {};
    for (let pageNum = 1; pageNum <= LEDGER_PAGES; pageNum++) {
      const page = await provider.listLedgerEntries(
        { pageNum, pageSize: 100, bizType: input.bizType },
        { signal: cancellationSignal() },
      );
      for (const entry of page.records) {
        if (!isTransferEntry(entry, input.merchantOrderNo)) continue;
        if (entry.accountId === input.payerAccountId && entry.direction === 'OUT') legs.payer = legOf(entry);
        if (entry.accountId === input.payeeAccountId && entry.direction === 'IN') legs.payee = legOf(entry);
      }
      if ((legs.payer && legs.payee) || page.records.length < 100) break;
    }
    return legs;
  }

  async function findSharedAccount(accountName: string): Promise<Account | undefined> {
    const accounts = await provider.getAccountInfo({}, { signal: cancellationSignal() });
    return accounts.find((a) => a.accountType === 'MARGIN' && a.accountName === accountName);
  }

  const cards = createCardActivities(deps);

  /**
   * What the card operation keyed `merchantOrderNo` took from `accountId`, per its ledger entries
   * ("0" if it took nothing).
   */
  async function chargedBy(accountId: string, merchantOrderNo: string): Promise<string> {
    const operation = await cards.getCardOperation({ merchantOrderNo });
    if (operation?.status !== 'success') return '0';
    const page = await provider.listLedgerEntries(
      { pageNum: 1, pageSize: 100, accountId, orderNo: operation.orderNo },
      { signal: cancellationSignal() },
    );
    return page.records.filter((e) => e.direction === 'OUT').reduce((sum, e) => add(sum, e.amount), '0');
  }

  return { findLegs, findSharedAccount, chargedBy };
}

/**
 * Sends the transfer keyed `merchantOrderNo`; a "Duplicate order number" answer means an earlier
 * attempt went through (the ledger may not show it yet).
 */
async function sendTransfer(deps: ActivityDeps, input: TransferInput): Promise<TransferResult> {
  const { merchantOrderNo } = input;
  try {
    await deps.provider.transferFunds(
      {
        type: input.type,
        merchantOrderNo,
        amount: input.amount,
        payerAccountId: input.payerAccountId,
        payeeAccountId: input.payeeAccountId,
        // The key rides in the remark: the ledger shows the remark, not our key.
        remark: input.remark ?? transferRemark(merchantOrderNo),
      },
      { signal: cancellationSignal() },
    );
  } catch (error) {
    if (isDuplicateOrder(error)) return { merchantOrderNo, sent: false };
    throw error;
  }
  return { merchantOrderNo, sent: true };
}

/**
 * A shared (MARGIN) account named `accountName`: the existing one, or a new one. The create has no
 * merchantOrderNo, so the name is the key: looked up before creating and after any failed or
 * ambiguous create (the sandbox, like a careful provider, refuses a second name).
 */
async function ensureShared(
  deps: ActivityDeps,
  findSharedAccount: (name: string) => Promise<Account | undefined>,
  accountName: string,
): Promise<SharedAccountResult> {
  const result = (a: Account, created: boolean): SharedAccountResult => ({
    accountId: a.accountId,
    accountName: a.accountName,
    currency: a.currency,
    created,
  });
  const existing = await findSharedAccount(accountName);
  if (existing) return result(existing, false);
  try {
    return result(await deps.provider.createSharedAccount({ accountName }, { signal: cancellationSignal() }), true);
  } catch (error) {
    const found = await findSharedAccount(accountName);
    if (found) return result(found, isAmbiguous(error));
    throw error;
  }
}

export interface TransferInput {
  merchantOrderNo: string;
  type: TransferType;
  amount: string;
  payerAccountId: string;
  payeeAccountId: string;
  remark?: string;
}

export function createTransferActivities(deps: ActivityDeps) {
  const { provider } = deps;
  const { findAccount } = createAccountHelpers(deps);
  const { findLegs, findSharedAccount, chargedBy } = transferReads(deps);

  return convertingFailures({
    /**
     * Fund transfer (TRANSFER: WALLET → MARGIN; COLLECTION: MARGIN → WALLET), idempotent by
     * merchantOrderNo. The operation answers only `true`, so an earlier attempt is recognised by
     * a "Duplicate order number" answer to the same key, or found in the ledger by the key the
     * remark carries (after an ambiguous outcome, on a retry, or when the balance check fails
     * because the money already moved).
     */
    async transferFunds(input: TransferInput): Promise<TransferResult> {
      const { merchantOrderNo } = input;
      const bizType = TRANSFER_DIRECTIONS[input.type].bizType;
      const { value } = await callIdempotent<TransferResult>({
        routes: deps.routes,
        merchantOrderNo,
        lookup: async () => {
          const legs = await findLegs({
            merchantOrderNo,
            bizType,
            payerAccountId: input.payerAccountId,
            payeeAccountId: input.payeeAccountId,
          });
          return legs.payer || legs.payee ? { merchantOrderNo, sent: false } : undefined;
        },
        precheck: async () => {
          const payer = await findAccount(input.payerAccountId, undefined);
          const issue = affordabilityIssue(payer.availableBalance, input.amount, payer.currency, 'amount');
          if (issue) {
            throw nonRetryable(FailureTypes.insufficientBalance, [
              { ...issue, message: `account ${payer.accountId} ${issue.message}` },
            ]);
          }
        },
        send: () => sendTransfer(deps, input),
      });
      return value;
    },

    /**
     * What a TRANSFER into a MARGIN account left unspent, read at the provider: what its ledger
     * entry brought in (`transferred`, as the transfer confirmed it), less what the card operations
     * keyed `chargedBy` took from that account (their ledger entries), and never more than the
     * account has available now (a shared account pays other cards too). The compensation returns
     * exactly this.
     */
    async unspentOfTransfer(input: {
      transferred: string;
      accountId: string;
      chargedBy: string[];
    }): Promise<UnspentTransfer> {
      const account = await findAccount(input.accountId, undefined);
      let charged = '0';
      for (const key of input.chargedBy) charged = add(charged, await chargedBy(input.accountId, key));
      const left = cmp(input.transferred, charged) > 0 ? sub(input.transferred, charged) : '0';
      const available = cmp(account.availableBalance, '0') > 0 ? account.availableBalance : '0';
      return {
        charged,
        available: account.availableBalance,
        currency: account.currency,
        unspent: cmp(left, available) > 0 ? available : left,
      };
    },

    /**
     * Both accounts of a transfer, with balances, types and decimals, for the checks made before
     * sending.
     */
    async prepareTransfer(input: { payerAccountId: string; payeeAccountId: string }): Promise<TransferAccounts> {
      const signal = cancellationSignal();
      const [payer, payee] = await Promise.all([
        provider.getAccount({ accountId: input.payerAccountId }, { signal }),
        provider.getAccount({ accountId: input.payeeAccountId }, { signal }),
      ]);
      return { payer: accountOf(payer), payee: accountOf(payee), ...notificationPlanOf(deps) };
    },

    /** Polls the ledger until both legs of the transfer keyed `merchantOrderNo` are there. */
    async awaitTransferInLedger(input: {
      merchantOrderNo: string;
      bizType: 'fund_transfer' | 'fund_collection';
      payerAccountId: string;
      payeeAccountId: string;
      poll: PollSettings;
    }): Promise<{ payer: LedgerLeg; payee: LedgerLeg }> {
      const { poll, ...filter } = input;
      return longPoll({
        poll,
        reprobes: deps.reprobes,
        what: `ledger entries of transfer ${input.merchantOrderNo}`,
        probe: () => findLegs(filter),
        done: (legs) => legs.payer !== undefined && legs.payee !== undefined,
        describe: (legs) => `${legs.payer ? 'payer' : ''}${legs.payee ? ' payee' : ''}`.trim() || 'none',
      }) as Promise<{ payer: LedgerLeg; payee: LedgerLeg }>;
    },

    /** A shared (MARGIN) account named `accountName`, found or made once (`ensureShared`). */
    async ensureSharedAccount(input: { accountName: string }): Promise<SharedAccountResult> {
      return ensureShared(deps, findSharedAccount, input.accountName.trim());
    },
  });
}

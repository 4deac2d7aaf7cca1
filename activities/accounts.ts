/** Account balances, and the balance checks made before money moves (spec: Account). */
import { cancellationSignal } from '@temporalio/activity';
import type { Account } from '../provider/schemas/account';
import { affordabilityIssue } from '../domain/eligibility';
import { FailureTypes } from '../domain/failure-types';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import type { TransferAccount } from './types';

/** The balance fields of an account, the part of it the checks before money moves read. */
export function balanceOf(account: Account): TransferAccount {
  return {
    accountId: account.accountId,
    accountType: account.accountType,
    currency: account.currency,
    availableBalance: account.availableBalance,
  };
}

/** What a mutation will cost an account; checked before anything is sent. */
export interface BalanceRequirement {
  /** The paying account; the merchant's WALLET account in `currency` when absent. */
  accountId?: string;
  total: string;
  currency: string;
}

export function createAccountHelpers({ provider }: ActivityDeps) {
  async function findAccount(accountId: string | undefined, currency: string | undefined): Promise<TransferAccount> {
    const signal = cancellationSignal();
    if (accountId !== undefined) return balanceOf(await provider.getAccount({ accountId }, { signal }));
    const accounts = await provider.getAccountInfo({}, { signal });
    const wallet = accounts.find(
      (a) => a.accountType === 'WALLET' && (currency === undefined || a.currency === currency),
    );
    if (!wallet) {
      throw nonRetryable(
        FailureTypes.insufficientBalance,
        `no WALLET account${currency ? ` in ${currency}` : ''} to pay from`,
      );
    }
    return balanceOf(wallet);
  }

  /** Throws a non-retryable InsufficientBalance when the account cannot pay `required.total`. */
  async function requireBalance(required: BalanceRequirement, path: string): Promise<void> {
    const account = await findAccount(required.accountId, required.currency);
    const issue = affordabilityIssue(account.availableBalance, required.total, required.currency, path);
    if (issue)
      throw nonRetryable(FailureTypes.insufficientBalance, [
        { ...issue, message: `account ${account.accountId} ${issue.message}` },
      ]);
  }

  return { findAccount, requireBalance };
}

export function createAccountActivities(deps: ActivityDeps) {
  const { findAccount } = createAccountHelpers(deps);

  return convertingFailures({
    /** Available balance of an account (the WALLET in `currency` when no id is given). */
    async getAccountBalance(input: { accountId?: string; currency?: string }): Promise<TransferAccount> {
      return await findAccount(input.accountId, input.currency);
    },
  });
}

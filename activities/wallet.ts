/**
 * On-chain funding (spec: Wallet): the coin's deposit address (reused, or created where the coin
 * is enabled and takes deposits) and the long-poll over the v2 wallet transactions of that
 * address until our deposit succeeds or fails.
 */
import { cancellationSignal } from '@temporalio/activity';
import { FailureTypes } from '../domain/failure-types';
import { matchesDeposit, type DepositMatch } from '../domain/wallet-funding';
import { walletDepositOf, type WalletDeposit } from '../domain/provider-records';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import { longPollFinal, type PollSettings } from './long-poll';
import { notificationPlanOf } from './notifications';
import type { NotificationPlan } from '../domain/notifications';
import { recordRoute } from './routes';

export type { WalletDeposit } from '../domain/provider-records';

export interface DepositAddress {
  coinKey: string;
  chain: string;
  coinName: string;
  address: string;
  confirmations: number;
}

export function createWalletActivities(deps: ActivityDeps) {
  const { provider } = deps;
  /** Our deposit: the oldest matching one (pages of 100, newest first). */
  async function findDeposit(match: DepositMatch): Promise<WalletDeposit | undefined> {
    const page = await provider.listWalletTransactions(
      {
        pageNum: 1,
        pageSize: 100,
        destinationAddress: match.address,
        type: 'DEPOSIT',
        ...(match.txHash ? { txHash: match.txHash } : {}),
      },
      { signal: cancellationSignal() },
    );
    const ours = page.records.filter((tx) => matchesDeposit(tx, match)).sort((a, b) => a.createTime - b.createTime)[0];
    return ours ? walletDepositOf(ours) : undefined;
  }

  return convertingFailures({
    /**
     * The deposit address of `coinKey`: an existing one, else a new one (only for an enabled coin
     * that takes deposits).
     */
    async prepareDepositAddress(input: {
      coinKey: string;
    }): Promise<DepositAddress & { notifications?: NotificationPlan }> {
      const signal = cancellationSignal();
      const coin = (await provider.listCoins({}, { signal })).find((c) => c.coinKey === input.coinKey);
      if (!coin) throw nonRetryable(FailureTypes.notEligible, `coinKey: coin ${input.coinKey} does not exist`);
      if (!coin.enabled || !coin.enableDeposit) {
        throw nonRetryable(
          FailureTypes.notEligible,
          `coinKey: coin ${input.coinKey} does not take deposits (enabled=${coin.enabled}, enableDeposit=${coin.enableDeposit})`,
        );
      }
      const existing = (await provider.listWalletAddresses({}, { signal })).find((a) => a.coinKey === coin.coinKey);
      const address = existing ?? (await provider.createWalletAddress({ coinKey: coin.coinKey }, { signal }));
      // Deposits carry no merchantOrderNo: they are routed by the address, recorded before the
      // workflow shows it to anyone who could pay to it.
      await recordRoute(deps.routes, 'address', address.address);
      return {
        coinKey: coin.coinKey,
        chain: coin.chain,
        coinName: coin.coinName,
        address: address.address,
        confirmations: coin.confirmations,
        // The plan, for walletFunding whose first activity this is (activities/notifications.ts).
        ...notificationPlanOf(deps),
      };
    },

    /**
     * Polls the address's deposits until ours is final (success after its confirmations, or fail).
     */
    async awaitWalletDeposit(input: { match: DepositMatch; poll: PollSettings }): Promise<WalletDeposit> {
      return longPollFinal({
        poll: input.poll,
        reprobes: deps.reprobes,
        what: `a deposit to the ${input.match.address.slice(0, 6)}… address`,
        find: () => findDeposit(input.match),
        status: (tx) => tx.status,
        describe: (tx) => `${tx.orderNo} ${tx.status}`,
        absent: 'no deposit yet',
      });
    },
  });
}

/**
 * What wallet funding (workflow `walletFunding`, id `funding-<fundingRef>`) needs beyond the
 * client functions its definition gives (client/definitions.ts `workflowClients.walletFunding`):
 * the workflow reuses or creates the coin's deposit address, waits for the on-chain deposit, then
 * optionally transfers the credit to a MARGIN account and deposits it to a card; the address to
 * pay is in the `fundingStatus` query as soon as the workflow has it ({@link awaitDepositAddress}).
 */
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { fundingStatusQuery, type WalletFundingStatus } from '../domain/wallet-funding';
import { workflowClients } from './definitions';

/**
 * Resolves with the deposit address to pay once the workflow has it, or with the status the
 * funding ended in without one (failed before an address, e.g. a disabled coin).
 */
export async function awaitDepositAddress(
  client: Client,
  fundingRef: string,
  opts: { pollMs?: number; signal?: AbortSignal } = {},
): Promise<WalletFundingStatus> {
  const handle = workflowClients.walletFunding.handle(client, fundingRef);
  for (;;) {
    const status = await handle.query(fundingStatusQuery).catch(() => undefined);
    if (status?.address || status?.stage === 'failed' || status?.stage === 'completed') return status;
    if (!status && (await handle.describe()).status.name !== 'RUNNING') return handle.query(fundingStatusQuery);
    if (opts.signal?.aborted) throw new Error('stopped before the deposit address was known');
    await sleep(opts.pollMs ?? 500, undefined, opts.signal ? { signal: opts.signal } : undefined).catch(
      () => undefined,
    );
  }
}

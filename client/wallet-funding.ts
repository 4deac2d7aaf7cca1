/**
 * Wallet funding for backend services, workflow `walletFunding`, id
 * `funding-<fundingRef>`: the workflow reuses or creates the coin's deposit address, waits for the
 * on-chain deposit, then optionally transfers the credit to a MARGIN account and deposits it to a
 * card. The caller's `fundingRef` is the idempotency key (client/start.ts); the address to pay is
 * in the `fundingStatus` query as soon as the workflow has it ({@link awaitDepositAddress}).
 */
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { fundingStatusQuery, type FundingRequestSchema, type WalletFundingStatus } from '../domain/wallet-funding';
import { walletFundingWorkflow } from '../domain/workflows';
import { definedClient, type DefinedHandle } from './definitions';

export type FundingRequest = z.input<typeof FundingRequestSchema>;
export type FundingHandle = DefinedHandle<typeof walletFundingWorkflow>;

const fundings = definedClient(walletFundingWorkflow);

/** Validates a funding request; throws `InvalidInputError` naming each field and rule. */
export const parseFundingRequest = fundings.parse;

/** Starts the funding keyed `request.fundingRef`, or returns the existing one (`started: false`). */
export const startWalletFunding = fundings.start;

/** A handle to the funding keyed `fundingRef` (no call is made). */
export const fundingHandle = fundings.handle;

/** The funding's stage, deposit address and deposit status (the `fundingStatus` query). */
export const getFundingStatus = fundings.status;

/** Waits for the funding; throws `WorkflowFailedError` (cause type DepositFailed, DepositExpired, ...). */
export const awaitFunding = fundings.result;

/**
 * Resolves with the deposit address to pay once the workflow has it, or with the status the
 * funding ended in without one (failed before an address, e.g. a disabled coin).
 */
export async function awaitDepositAddress(
  client: Client,
  fundingRef: string,
  opts: { pollMs?: number; signal?: AbortSignal } = {},
): Promise<WalletFundingStatus> {
  const handle = fundingHandle(client, fundingRef);
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

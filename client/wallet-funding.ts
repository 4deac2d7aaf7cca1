/**
 * Wallet funding for backend services, workflow `walletFunding`, id
 * `funding-<fundingRef>`: the workflow reuses or creates the coin's deposit address, waits for the
 * on-chain deposit, then optionally transfers the credit to a MARGIN account and deposits it to a
 * card. The caller's `fundingRef` is the idempotency key (client/start.ts); the address to pay is
 * in the `fundingStatus` query as soon as the workflow has it ({@link awaitDepositAddress}).
 */
import type { Exact } from '../domain/exact';
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { fundingStatusQuery, type WalletFundingResult, type WalletFundingStatus } from '../domain/wallet-funding';
import { parseInput, waitOverrides } from './inputs';
import { businessRef, cardNoField, idDigits, positiveAmount } from '../domain/fields';
import type { StartOptions, Started } from './start';
import { walletFundingWorkflow } from '../domain/workflows';
import { definedHandle, definedResult, definedStatus, startDefined, type DefinedHandle } from './definitions';

export const FundingRequestSchema = z
  .object({
    fundingRef: businessRef,
    coinKey: z
      .string({ error: 'is required' })
      .regex(/^[A-Za-z0-9_]{1,32}$/, { message: 'must be a coin key such as USDT_TRC20' }),
    expectedAmount: positiveAmount.optional(),
    txHash: z
      .string()
      .regex(/^[A-Za-z0-9]{8,128}$/, { message: 'must be a transaction hash (letters and digits)' })
      .optional(),
    deadlineMs: z.number().int().positive().optional(),
    transfer: z.object({ payeeAccountId: idDigits, amount: positiveAmount.optional() }).strict().optional(),
    cardDeposit: z
      .object({ cardNo: cardNoField, cardTypeId: idDigits, amount: positiveAmount.optional() })
      .strict()
      .optional(),
    customerRef: businessRef.optional(),
    wait: waitOverrides,
  })
  .strict();
export type FundingRequest = z.input<typeof FundingRequestSchema>;

/** Validates a funding request; throws `InvalidInputError` naming each field and rule. */
export function parseFundingRequest(request: unknown): Exact<z.output<typeof FundingRequestSchema>> {
  return parseInput(FundingRequestSchema, 'wallet funding request', request);
}

/** Starts the funding keyed `request.fundingRef`, or returns the existing one (`started: false`). */
export async function startWalletFunding(
  client: Client,
  request: FundingRequest,
  opts: StartOptions = {},
): Promise<Started<WalletFundingResult>> {
  const { fundingRef, ...input } = parseFundingRequest(request);
  return startDefined(client, walletFundingWorkflow, fundingRef, input, { customerRef: input.customerRef }, opts);
}

export type FundingHandle = DefinedHandle<typeof walletFundingWorkflow>;

export function fundingHandle(client: Client, fundingRef: string): FundingHandle {
  return definedHandle(client, walletFundingWorkflow, fundingRef);
}

/** The funding's stage, deposit address and deposit status (the `fundingStatus` query). */
export async function getFundingStatus(client: Client, fundingRef: string): Promise<WalletFundingStatus> {
  return definedStatus(client, walletFundingWorkflow, fundingRef);
}

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

/** Waits for the funding; throws `WorkflowFailedError` (cause type DepositFailed, DepositExpired, ...). */
export async function awaitFunding(client: Client, fundingRef: string): Promise<WalletFundingResult> {
  return definedResult(client, walletFundingWorkflow, fundingRef);
}

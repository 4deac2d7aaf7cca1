/**
 * Fund transfers for backend services, workflow `fundTransfer`, id
 * `transfer-<transferRef>`: TRANSFER moves WALLET → MARGIN, COLLECTION MARGIN → WALLET (spec:
 * /account/transfer). The caller's `transferRef` is the idempotency key: a second start with the
 * same reference returns the first execution (client/start.ts), and the merchantOrderNo derived
 * from the workflow id makes the provider act once even across retries.
 *
 * Checked here before anything is contacted: type, amount (a decimal string > 0), account ids
 * (digit strings, payer ≠ payee). Balance, account types and currency need the provider: the
 * workflow checks them first and fails with InsufficientBalance / InvalidInput, sending nothing.
 */
import type { Exact } from '../domain/exact';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { TRANSFER_TYPES } from '../api/rules';
import { lengthBetween } from '../api/schemas/primitives';
import type { FundTransferResult, FundTransferStatus } from '../domain/fund-transfer';
import { fundTransferWorkflow } from '../domain/workflows';
import { definedHandle, definedResult, definedStatus, startDefined, type DefinedHandle } from './definitions';
import { parseInput, refuse, waitOverrides } from './inputs';
import { businessRef, idDigits, positiveAmount } from '../domain/fields';
import type { StartOptions, Started } from './start';

export const TransferRequestSchema = z
  .object({
    transferRef: businessRef,
    type: z.enum(TRANSFER_TYPES, { error: `must be one of ${TRANSFER_TYPES.join(', ')}` }),
    amount: positiveAmount,
    payerAccountId: idDigits,
    payeeAccountId: idDigits,
    // The provider's remark is the merchantOrderNo, a space and this (api/schemas/account.ts: 255 in all).
    remark: lengthBetween(0, 200).optional(),
    customerRef: businessRef.optional(),
    wait: waitOverrides,
  })
  .strict();
export type TransferRequest = z.input<typeof TransferRequestSchema>;

const WHAT = 'transfer request';

/** Validates a transfer request; throws `InvalidInputError` naming each field and rule. */
export function parseTransferRequest(request: unknown): Exact<z.output<typeof TransferRequestSchema>> {
  const valid = parseInput(TransferRequestSchema, WHAT, request);
  if (valid.payerAccountId === valid.payeeAccountId) refuse(WHAT, 'payeeAccountId', 'must differ from payerAccountId');
  return valid;
}

/** Starts the transfer keyed `request.transferRef`, or returns the existing one (`started: false`): money moves once. */
export async function startTransfer(
  client: Client,
  request: TransferRequest,
  opts: StartOptions = {},
): Promise<Started<FundTransferResult>> {
  const { transferRef, ...input } = parseTransferRequest(request);
  return startDefined(client, fundTransferWorkflow, transferRef, input, { customerRef: input.customerRef }, opts);
}

export type TransferHandle = DefinedHandle<typeof fundTransferWorkflow>;

export function transferHandle(client: Client, transferRef: string): TransferHandle {
  return definedHandle(client, fundTransferWorkflow, transferRef);
}

/** The transfer's stage and merchantOrderNo (the `transferStatus` query). */
export async function getTransferStatus(client: Client, transferRef: string): Promise<FundTransferStatus> {
  return definedStatus(client, fundTransferWorkflow, transferRef);
}

/** Waits for the transfer, confirmed in the ledger; throws `WorkflowFailedError` (cause type InsufficientBalance, InvalidInput, ...). */
export async function awaitTransfer(client: Client, transferRef: string): Promise<FundTransferResult> {
  return definedResult(client, fundTransferWorkflow, transferRef);
}

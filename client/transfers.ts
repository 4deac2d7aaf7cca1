/**
 * Fund transfers for backend services, workflow `fundTransfer`, id
 * `transfer-<transferRef>`: TRANSFER moves WALLET → MARGIN, COLLECTION MARGIN → WALLET (spec:
 * /account/transfer). The caller's `transferRef` is the idempotency key: a second start with the
 * same reference returns the first execution (client/start.ts), and the merchantOrderNo derived
 * from the workflow id makes the provider act once even across retries.
 *
 * Checked here before anything is contacted, by the request schema of the workflow's definition
 * (domain/fund-transfer.ts): type, amount (a decimal string > 0), account ids (digit strings,
 * payer ≠ payee). Balance, account types and currency need the provider: the workflow checks
 * them first and fails with InsufficientBalance / InvalidInput, sending nothing.
 */
import type { z } from 'zod';
import type { TransferRequestSchema } from '../domain/fund-transfer';
import { fundTransferWorkflow } from '../domain/workflows';
import { definedClient, type DefinedHandle } from './definitions';

export type TransferRequest = z.input<typeof TransferRequestSchema>;
export type TransferHandle = DefinedHandle<typeof fundTransferWorkflow>;

/** The transfer's client functions, generated from its definition (the CLI's `transfer` command uses them too). */
export const transferClient = definedClient(fundTransferWorkflow);

/** Validates a transfer request; throws `InvalidInputError` naming each field and rule. */
export const parseTransferRequest = transferClient.parse;

/** Starts the transfer keyed `request.transferRef`, or returns the existing one (`started: false`): money moves once. */
export const startTransfer = transferClient.start;

/** A handle to the transfer keyed `transferRef` (no call is made). */
export const transferHandle = transferClient.handle;

/** The transfer's stage and merchantOrderNo (the `transferStatus` query). */
export const getTransferStatus = transferClient.status;

/** Waits for the transfer, confirmed in the ledger; throws `WorkflowFailedError` (cause type InsufficientBalance, InvalidInput, ...). */
export const awaitTransfer = transferClient.result;

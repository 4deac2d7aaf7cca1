/**
 * Shared (MARGIN) account creation for backend services, workflow
 * `sharedAccount`, id `shared-account-<accountName>` (domain/shared-account.ts). The provider's
 * create takes no merchantOrderNo, so the name is the key: a repeated start returns the first
 * execution, and the workflow itself reuses an existing MARGIN account of that name.
 * Its status is the `sharedAccountStatus` query (`cardflow status <workflowId>`).
 */
import type { z } from 'zod';
import type { SharedAccountRequestSchema } from '../domain/shared-account';
import { sharedAccountWorkflow } from '../domain/workflows';
import { definedClient } from './definitions';

export type SharedAccountRequest = z.input<typeof SharedAccountRequestSchema>;

/** The account's client functions, generated from its definition (the CLI's `shared-account` command uses them too). */
export const sharedAccountClient = definedClient(sharedAccountWorkflow);

/** Starts the creation of the shared account `request.accountName`, or returns the existing execution. */
export const startSharedAccount = sharedAccountClient.start;

/** A handle to the creation of the account `accountName` (no call is made). */
export const sharedAccountHandle = sharedAccountClient.handle;

/** Waits for the account; `created: false` when one of that name already existed. */
export const awaitSharedAccount = sharedAccountClient.result;

/**
 * Shared (MARGIN) account creation for backend services, workflow
 * `sharedAccount`, id `shared-account-<accountName>` (domain/shared-account.ts). The provider's
 * create takes no merchantOrderNo, so the name is the key: a repeated start returns the first
 * execution, and the workflow itself reuses an existing MARGIN account of that name.
 * Its status is the `sharedAccountStatus` query (`cardflow status <workflowId>`).
 */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { SharedAccountResult } from '../domain/shared-account';
import { sharedAccountWorkflow } from '../domain/workflows';
import { definedHandle, definedResult, startDefined, type DefinedHandle } from './definitions';
import { parseInput } from './inputs';
import { businessRef } from '../domain/fields';
import type { StartOptions, Started } from './start';

export const SharedAccountRequestSchema = z
  .object({
    // Part of the workflow id: printable, no "/" (the child-id separator), trimmed like the id helper does.
    accountName: z
      .string({ error: 'is required' })
      .trim()
      .min(1, { message: 'is required' })
      .max(64, { message: 'length must be 1 to 64 characters' })
      .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, {
        message: 'must start with a letter or digit and contain only letters, digits, spaces, "_", "." and "-"',
      }),
    customerRef: businessRef.optional(),
  })
  .strict();
export type SharedAccountRequest = z.input<typeof SharedAccountRequestSchema>;

/** Starts the creation of the shared account `request.accountName`, or returns the existing execution. */
export async function startSharedAccount(
  client: Client,
  request: SharedAccountRequest,
  opts: StartOptions = {},
): Promise<Started<SharedAccountResult>> {
  const input = parseInput(SharedAccountRequestSchema, 'shared account request', request);
  return startDefined(
    client,
    sharedAccountWorkflow,
    input.accountName,
    input,
    { customerRef: input.customerRef },
    opts,
  );
}

export function sharedAccountHandle(client: Client, accountName: string): DefinedHandle<typeof sharedAccountWorkflow> {
  return definedHandle(client, sharedAccountWorkflow, accountName);
}

/** Waits for the account; `created: false` when one of that name already existed. */
export async function awaitSharedAccount(client: Client, accountName: string): Promise<SharedAccountResult> {
  return definedResult(client, sharedAccountWorkflow, accountName);
}

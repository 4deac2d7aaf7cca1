/**
 * `sharedAccount`: create a shared (MARGIN) account idempotently, workflow
 * id `shared-account-<accountName>`. The provider's create takes no merchantOrderNo (spec:
 * /account/create), so the activity first looks for a MARGIN account of the same name and creates
 * only when there is none; after an ambiguous outcome it looks again.
 *
 * Residual race: two creators outside this workflow id (or a provider whose account list lags
 * behind a create whose answer was lost) can still make two accounts of one name; the workflow id
 * rules out concurrent creators inside cardflow, and names are the only key the provider offers.
 */
import { defineQuery } from '@temporalio/workflow';
import { z } from 'zod';
import { businessRef } from './fields';
import type { WaitOverrides } from './wait-profile';
import type { FailureSummary } from './summaries';

export interface SharedAccountInput {
  accountName: string;
  customerRef?: string;
  wait?: WaitOverrides;
}

export interface SharedAccountResult {
  accountId: string;
  accountName: string;
  currency: string;
  /** False when an account of that name already existed. */
  created: boolean;
}

/** Where a `sharedAccount` workflow stands (query `sharedAccountStatus`). */
export interface SharedAccountStatus {
  stage: 'ensuring' | 'completed' | 'failed' | 'cancelled';
  accountName?: string;
  accountId?: string;
  failure?: FailureSummary;
}

export const sharedAccountStatusQuery = defineQuery<SharedAccountStatus>('sharedAccountStatus');

/**
 * What a backend hands the account's start: its name is the business key (the provider's create has
 * no other).
 */
export const SharedAccountRequestSchema = z
  .object({
    // Part of the workflow id: printable, no "/" (the child-id separator), trimmed like the id
    // helper does.
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

/** `sharedAccount` (domain/shared-account.ts): one MARGIN account per name, found or created. */
import { sharedAccountWorkflow } from '../domain/workflows';
import { FailureTypes } from '../domain/failure-types';
import {
  sharedAccountStatusQuery,
  type SharedAccountInput,
  type SharedAccountResult,
  type SharedAccountStatus,
} from '../domain/shared-account';
import { providerCallsFor } from './calls/profiles';
import { Attributes, isChild, type StartedWith } from './reporting/search';
import { trackStatus } from './reporting/tracked-status';

export async function sharedAccount(input: SharedAccountInput & StartedWith): Promise<SharedAccountResult> {
  const { status, enter, fail, step } = trackStatus<SharedAccountStatus>(
    { stage: 'ensuring' },
    sharedAccountStatusQuery,
  );
  const accountName = typeof input.accountName === 'string' ? input.accountName.trim() : '';
  if (!accountName) return fail(FailureTypes.invalidInput, 'accountName: is required');
  status.accountName = accountName;
  if (!isChild())
    new Attributes(input.startAttributes).set({ customerRef: input.customerRef, flow: sharedAccountWorkflow.flow });
  const account = await step(() => providerCallsFor(input.wait).ensureSharedAccount({ accountName }));
  status.accountId = account.accountId;
  enter('completed');
  return account;
}

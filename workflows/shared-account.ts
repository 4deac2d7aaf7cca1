/** `sharedAccount` (domain/shared-account.ts): one MARGIN account per name, found or created. */
import { FailureTypes } from '../domain/failure-types';
import type { SharedAccountInput, SharedAccountResult } from '../domain/shared-account';
import { Flows } from '../domain/workflow-types';
import { failWith } from './support/failures';
import { providerCallsFor } from './support/profiles';
import { Attributes, isChild, type StartedWith } from './support/search';

export async function sharedAccount(input: SharedAccountInput & StartedWith): Promise<SharedAccountResult> {
  const accountName = typeof input.accountName === 'string' ? input.accountName.trim() : '';
  if (!accountName) throw failWith(FailureTypes.invalidInput, 'accountName: is required');
  if (!isChild())
    new Attributes(input.startAttributes).set({ customerRef: input.customerRef, flow: Flows.sharedAccount });
  return providerCallsFor(input.wait).ensureSharedAccount({ accountName });
}

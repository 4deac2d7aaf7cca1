/**
 * `referenceRefresh` (domain/reference-refresh.ts): one activity that reads the provider's
 * reference lists and stores them. A read: retried with backoff through a provider outage, and
 * a run that gives up leaves the cached lists as they were for the next scheduled run.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { CardflowActivities } from '../activities';
import type { ReferenceRefreshInput, ReferenceRefreshResult } from '../domain/reference-refresh';
import { NON_RETRYABLE_TYPES } from './calls/profiles';

const { refreshReferenceData } = proxyActivities<CardflowActivities>({
  startToCloseTimeout: '2m',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_TYPES,
  },
});

export async function referenceRefresh(_input: ReferenceRefreshInput = {}): Promise<ReferenceRefreshResult> {
  return refreshReferenceData();
}

/** One activity under the provider call's options (PROVIDER_CALL), for the starved-worker test. */
import { proxyActivities } from '@temporalio/workflow';
import { PROVIDER_CALL } from '../../../workflows/calls/profiles';

/**
 * What each attempt saw of itself in the server's description: when it was scheduled and started,
 * how the one before ended.
 */
export interface AttemptSeen {
  attempt: number;
  scheduledMs: number;
  startedMs: number;
  lastFailure?: string;
}

export interface StarvedCallActivities {
  starvedProviderCall(input: { starvedAttempts: number }): Promise<AttemptSeen[]>;
}

export async function starvedCall(input: { starvedAttempts: number }): Promise<AttemptSeen[]> {
  const { starvedProviderCall } = proxyActivities<StarvedCallActivities>(PROVIDER_CALL);
  return starvedProviderCall(input);
}

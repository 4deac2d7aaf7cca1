/**
 * A review probe that looks only after a while: a review round that ends before it answers was
 * ended by its webhook, and the history shows it (the workflow cancelled the probe, which never
 * completed). It heartbeats while it waits, so that cancellation reaches it.
 */
import { Context } from '@temporalio/activity';
import { createActivities, type CardflowActivities } from '../../../activities';
import type { ProviderClient } from '../../../provider/client';

export function lateReviewProbe(provider: ProviderClient, delayMs = 15_000): Partial<CardflowActivities> {
  const activities = createActivities({ provider });
  return {
    async awaitCardholderReview(input) {
      for (let waited = 0; waited < delayMs; waited += 250) {
        Context.current().heartbeat();
        await Context.current().sleep(250);
      }
      return activities.awaitCardholderReview(input);
    },
  };
}

/**
 * A Temporal Schedule that starts one workflow every interval, ensured rather than created: the
 * worker at start and the CLI may both call it, any number of times. It retries through a
 * Temporal restart as the starts do: creating, or else updating, is safe to try again, and a
 * create whose answer was lost is found and updated (`created: false`). A run still going when
 * the next is due makes that one skip (overlap SKIP).
 */
import { type Client, ScheduleAlreadyRunning, type ScheduleOptionsAction } from '@temporalio/client';
import { addressOf, retryWhileUnavailable, type UnavailableRetry } from '../platform/temporal/unavailable-retry';

export interface IntervalSchedule {
  scheduleId: string;
  intervalMs: number;
  action: ScheduleOptionsAction;
  whileUnavailable?: UnavailableRetry | undefined;
}

/** Creates the schedule, or brings an existing one to this interval and action. */
export async function ensureIntervalSchedule(
  client: Client,
  { scheduleId, intervalMs, action, whileUnavailable }: IntervalSchedule,
): Promise<{ scheduleId: string; created: boolean }> {
  const spec = { intervals: [{ every: intervalMs }] };
  return retryWhileUnavailable(
    addressOf(client),
    async () => {
      try {
        await client.schedule.create({ scheduleId, spec, action, policies: { overlap: 'SKIP' } });
        return { scheduleId, created: true };
      } catch (error) {
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      }
      await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action }));
      return { scheduleId, created: false };
    },
    whileUnavailable,
  );
}

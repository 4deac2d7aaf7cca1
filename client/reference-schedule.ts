/**
 * The Temporal Schedule that refreshes the provider's reference data (domain/reference-refresh.ts):
 * created once, brought to the configured interval when it exists, by the worker at start and by
 * `npm start`, as reconciliation's schedule is (client/reconciliation.ts).
 */
import { type Client, ScheduleAlreadyRunning, type ScheduleOptionsAction } from '@temporalio/client';
import { CARDFLOW_TASK_QUEUE } from '../domain/task-queue';
import { REFERENCE_SCHEDULE_ID, type ReferenceRefreshInput } from '../domain/reference-refresh';
import { WorkflowTypes } from '../domain/workflows';
import { addressOf, retryWhileUnavailable, type UnavailableRetry } from '../platform/temporal/unavailable-retry';

export interface ReferenceScheduleSettings {
  /** CARDFLOW_REFERENCE_REFRESH_INTERVAL. */
  intervalMs: number;
  taskQueue?: string;
  /** Default {@link REFERENCE_SCHEDULE_ID}. */
  scheduleId?: string;
  whileUnavailable?: UnavailableRetry | undefined;
}

/**
 * Creates the schedule, or brings an existing one to this interval; safe to call any number of
 * times. A refresh still running when the next is due makes that one skip (overlap SKIP).
 */
export async function ensureReferenceSchedule(
  client: Client,
  settings: ReferenceScheduleSettings,
): Promise<{ scheduleId: string; created: boolean }> {
  const scheduleId = settings.scheduleId ?? REFERENCE_SCHEDULE_ID;
  const action: ScheduleOptionsAction = {
    type: 'startWorkflow',
    workflowType: WorkflowTypes.referenceRefresh,
    workflowId: `${scheduleId}-run`,
    taskQueue: settings.taskQueue ?? CARDFLOW_TASK_QUEUE,
    args: [{} satisfies ReferenceRefreshInput],
  };
  const spec = { intervals: [{ every: settings.intervalMs }] };
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
    settings.whileUnavailable,
  );
}

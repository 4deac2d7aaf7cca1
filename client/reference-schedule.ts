/**
 * The Temporal Schedule that refreshes the provider's reference data (domain/reference-refresh.ts),
 * ensured by the worker at start and by `npm start` as reconciliation's is (client/schedules.ts).
 */
import type { Client } from '@temporalio/client';
import { CARDFLOW_TASK_QUEUE } from '../domain/task-queue';
import { REFERENCE_SCHEDULE_ID, type ReferenceRefreshInput } from '../domain/reference-refresh';
import { WorkflowTypes } from '../domain/workflows';
import type { UnavailableRetry } from '../platform/temporal/unavailable-retry';
import { ensureIntervalSchedule } from './schedules';

export interface ReferenceScheduleSettings {
  /** CARDFLOW_REFERENCE_REFRESH_INTERVAL. */
  intervalMs: number;
  taskQueue?: string;
  /** Default {@link REFERENCE_SCHEDULE_ID}. */
  scheduleId?: string;
  whileUnavailable?: UnavailableRetry | undefined;
}

/** Creates the schedule, or brings an existing one to this interval; safe to call again. */
export function ensureReferenceSchedule(
  client: Client,
  settings: ReferenceScheduleSettings,
): Promise<{ scheduleId: string; created: boolean }> {
  const scheduleId = settings.scheduleId ?? REFERENCE_SCHEDULE_ID;
  return ensureIntervalSchedule(client, {
    scheduleId,
    intervalMs: settings.intervalMs,
    action: {
      type: 'startWorkflow',
      workflowType: WorkflowTypes.referenceRefresh,
      workflowId: `${scheduleId}-run`,
      taskQueue: settings.taskQueue ?? CARDFLOW_TASK_QUEUE,
      args: [{} satisfies ReferenceRefreshInput],
    },
    whileUnavailable: settings.whileUnavailable,
  });
}

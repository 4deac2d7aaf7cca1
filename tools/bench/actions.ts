/**
 * Counting history events and billable Temporal Cloud actions of one onboarding, from its histories
 * (the parent and every child, recursively).
 *
 * The rule follows Temporal Cloud's documented action list (docs.temporal.io/cloud/actions):
 * - Workflow started (client start, child start, continue-as-new): 1 per WorkflowExecutionStarted.
 * - Activity started or retried: 1 per attempt; history keeps one ActivityTaskStarted whose
 *   `attempt` is the last attempt's number, so an activity costs `attempt` actions (1 if never
 *   started).
 * - Local activities: 1 per workflow task that recorded any (counted from their markers).
 * - Timer started (including the timer behind `condition(fn, timeout)` and `sleep`): 1 per
 *   TimerStarted.
 * - Search attribute upsert: 1 per UpsertWorkflowSearchAttributes (attributes given at start are
 *   free).
 * - Signal sent: 1 per WorkflowExecutionSignaled (a signal between workflows is counted once, where
 *   it lands).
 * - Update received: 1 per accepted Update (rejected ones leave no event and are not seen here).
 * - Not in histories, so not counted: queries (the bench sends none), activity heartbeats and
 *   retries of an activity cancelled before it closed (the server's own `action` metric, printed
 *   beside, counts those), and child start/signal *initiated* events (counted at the receiving
 *   execution).
 */
import type { Client } from '@temporalio/client';

type HistoryEvent = Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>['events'] extends
  Array<infer E> | null | undefined
  ? E
  : never;

export interface ExecutionHistory {
  workflowId: string;
  events: HistoryEvent[];
}

export interface ActionCount {
  executions: number;
  events: number;
  actions: number;
  byKind: Record<string, number>;
}

const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

/** Billable actions and events of a set of histories, by the rule above. */
export function countActions(histories: readonly ExecutionHistory[]): ActionCount {
  const byKind: Record<string, number> = {};
  const add = (kind: string, n = 1) => (byKind[kind] = (byKind[kind] ?? 0) + n);
  let events = 0;
  for (const { events: list } of histories) {
    events += list.length;
    const startedAttempt = new Map<string, number>();
    const localActivityTasks = new Set<string>();
    for (const e of list) {
      if (e.activityTaskStartedEventAttributes) {
        startedAttempt.set(
          String(e.activityTaskStartedEventAttributes.scheduledEventId),
          e.activityTaskStartedEventAttributes.attempt ?? 1,
        );
      }
    }
    for (const e of list) {
      if (e.workflowExecutionStartedEventAttributes) add('workflow started');
      else if (e.activityTaskScheduledEventAttributes)
        add('activity attempts', startedAttempt.get(String(e.eventId)) ?? 1);
      else if (e.timerStartedEventAttributes) add('timers');
      else if (e.upsertWorkflowSearchAttributesEventAttributes) add('search attribute upserts');
      else if (e.workflowExecutionSignaledEventAttributes) add('signals');
      else if (e.workflowExecutionUpdateAcceptedEventAttributes) add('updates');
      else if (e.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER) {
        localActivityTasks.add(String(e.markerRecordedEventAttributes.workflowTaskCompletedEventId));
      }
    }
    if (localActivityTasks.size) add('local activity tasks', localActivityTasks.size);
  }
  const actions = Object.values(byKind).reduce((a, b) => a + b, 0);
  return { executions: histories.length, events, actions, byKind };
}

/** The history of `workflowId` and of every child it started, recursively. */
export async function collectHistories(client: Client, workflowId: string): Promise<ExecutionHistory[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const out: ExecutionHistory[] = [{ workflowId, events }];
  for (const e of events) {
    const childId = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
    if (childId) out.push(...(await collectHistories(client, childId)));
  }
  return out;
}

/** The rule, printed with the figures. */
export const COUNTING_RULE = [
  'billable actions counted from histories (Temporal Cloud action list, docs.temporal.io/cloud/actions):',
  '  workflow started (client, child, continue-as-new) 1 each; activity 1 per attempt (ActivityTaskStarted.attempt);',
  '  local activities 1 per workflow task; timer started 1; search-attribute upsert 1; signal received 1; update accepted 1;',
  '  not in histories: queries (none sent), heartbeats, rejected updates, and retries of an',
  "  activity cancelled before it closed (its ActivityTaskStarted is never written); the server's own `action` metric is printed beside.",
].join('\n');

/** Sums of the dev server's `action` counter (Prometheus text), by action_type. */
export function parseActionMetric(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^action\{[^}]*action_type="([^"]+)"[^}]*\}\s+([0-9.eE+-]+)$/.exec(line.trim());
    if (m) out[m[1]!] = (out[m[1]!] ?? 0) + Number(m[2]);
  }
  return out;
}

/** after - before, per action type, dropping zeros. */
export function metricDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) {
    const d = v - (before[k] ?? 0);
    if (d) out[k] = d;
  }
  return out;
}

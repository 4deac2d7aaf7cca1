/**
 * The task queues the cardflow worker polls. One queue hosts every workflow and the activities
 * that act (provider mutations, reads a step needs now); the probes of long waits (a review, a
 * work order, an operation whose webhook is late) run on a second queue beside it, so that
 * thousands of parked customers' probes are rate-limited on their own and never take the slots
 * or the provider budget of a customer's card creation.
 */
import { DEFAULT_TASK_QUEUE } from '../platform/config/values/task-queue';

export const CARDFLOW_TASK_QUEUE = DEFAULT_TASK_QUEUE;

/** The probe queue that goes with a workflow task queue (a workflow derives it from its own). */
export function probeTaskQueue(taskQueue: string): string {
  return `${taskQueue}-probes`;
}

/**
 * How long a worker has for one workflow task before Temporal gives it to another (the SDK's
 * default is 10 s). A workflow task takes milliseconds, a cold replay of an onboarding well under a
 * second; what this bounds in practice is a task handed to a worker that just died (or to a poll of
 * its that the server had not yet seen go): the workflow waits this long for its next step. Set on
 * every start (client/start.ts) and child (workflows/calls/children.ts); docs/timeouts.md.
 */
export const WORKFLOW_TASK_TIMEOUT = '5s';

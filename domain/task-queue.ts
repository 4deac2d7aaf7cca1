/**
 * The task queues the cardflow worker polls. One queue hosts every workflow and the activities
 * that act (provider mutations, reads a step needs now); the probes of long waits (a review, a
 * work order, an operation whose webhook is late) run on a second queue beside it, so that
 * thousands of parked customers' probes are rate-limited on their own and never take the slots
 * or the provider budget of a customer's card creation.
 */
export const CARDFLOW_TASK_QUEUE = 'cardflow';

/** The probe queue that goes with a workflow task queue (a workflow derives it from its own). */
export function probeTaskQueue(taskQueue: string): string {
  return `${taskQueue}-probes`;
}

/**
 * The task queue the cardflow worker polls. One queue hosts every workflow and activity of the
 * project; a second queue would only be worth it to isolate slow provider calls.
 */
export const CARDFLOW_TASK_QUEUE = 'cardflow';

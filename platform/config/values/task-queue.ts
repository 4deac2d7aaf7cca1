/**
 * The task queue of a cardflow worker unless `CARDFLOW_TASK_QUEUE` names another: the
 * configuration's default, and what a backend that reads no configuration starts workflows on.
 * Free of Node so that workflow code may import it (domain/task-queue.ts).
 */
export const DEFAULT_TASK_QUEUE = 'cardflow';

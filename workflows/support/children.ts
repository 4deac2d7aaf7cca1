/**
 * How a workflow runs another as its child: called by function, so the compiler checks the
 * child's input; id derived from the parent's (`childWorkflowId`, or a per-request suffix); the
 * search attributes set at start (free, and handed to the child in its input so it does not upsert
 * them again); TERMINATE on parent close, so a process never leaves a half-done step running on
 * its own.
 */
import { executeChild, ParentClosePolicy } from '@temporalio/workflow';
import { startAttributes, type StartAttributes } from '../../domain/start-attributes';
import { WORKFLOW_TASK_TIMEOUT } from '../../domain/task-queue';

/** Runs `workflow` as a child with id `workflowId`; `input` is its one input object, without `startAttributes`. */
export function runChild<I extends { startAttributes?: StartAttributes }, R>(
  workflow: (input: I) => Promise<R>,
  workflowId: string,
  start: StartAttributes,
  input: Omit<I, 'startAttributes'>,
  /** @default TERMINATE: the step ends with its parent. */
  parentClosePolicy: ParentClosePolicy = ParentClosePolicy.TERMINATE,
): Promise<R> {
  return executeChild(workflow, {
    workflowId,
    args: [{ ...input, startAttributes: start } as I],
    parentClosePolicy,
    typedSearchAttributes: startAttributes(start),
    // An attribute of the start command that replay does not compare (workflows started before it replay).
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
  });
}

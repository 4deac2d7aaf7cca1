/**
 * How `customerOnboarding` runs its steps as child workflows: ids derived from its own
 * (`childWorkflowId`), the search attributes set at start (free, and handed to the child so it
 * does not upsert them again), and TERMINATE on parent close, so an onboarding never leaves a
 * half-done step running on its own.
 */
import { executeChild, ParentClosePolicy } from '@temporalio/workflow';
import { childStartAttributes, type StartAttributes } from '../../domain/start-attributes';
import type { WorkflowType } from '../../domain/workflow-types';

/** Runs `type` as a child with id `workflowId`; `args` is its one input object (plus `startAttributes`). */
export function runChild<T>(
  type: WorkflowType,
  workflowId: string,
  start: StartAttributes,
  args: Record<string, unknown>,
): Promise<T> {
  return executeChild<(arg: unknown) => Promise<T>>(type, {
    workflowId,
    args: [{ ...args, startAttributes: start }],
    parentClosePolicy: ParentClosePolicy.TERMINATE,
    typedSearchAttributes: childStartAttributes(start),
  });
}

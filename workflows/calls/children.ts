/**
 * How a workflow runs another as its child, from the child's definition (domain/workflows.ts):
 * its id is `<parentId>/<childStep>` (or a per-request suffix), its start attributes are its flow,
 * the customer and the merchantOrderNos its definition routes at start, derived by the same
 * function the child sends them with, so each key is written once; the attributes are set at
 * start (free) and handed to the child in its input so it does not upsert them again; TERMINATE
 * on parent close, so a process never leaves a half-done step running on its own.
 */
import { executeChild, ParentClosePolicy, startChild, workflowInfo } from '@temporalio/workflow';
import { startAttributes } from '../../domain/start-attributes';
import { WORKFLOW_TASK_TIMEOUT } from '../../domain/task-queue';
import {
  childIdOf,
  startAttributesOf,
  type AnyWorkflowDefinition,
  type InputOf,
  type ResultOf,
  type StartContext,
} from '../../domain/workflow-definition';
import type { Attributes } from '../reporting/search';

export interface ChildOptions extends Pick<StartContext, 'customerRef' | 'routeBy'> {
  /** A child started once per request: `<parentId>/<suffix>` instead of the definition's step. */
  suffix?: string;
  /** @default TERMINATE: the step ends with its parent. */
  parentClosePolicy?: ParentClosePolicy;
  /**
   * The parent's search attributes, when the receiver is to route the child's events to the
   * parent as well: the merchantOrderNos the child starts with are added there (one upsert)
   * before it starts, derived once with the child's own.
   */
  routeToParent?: Attributes;
}

/**
 * Runs `definition` as a child of the current workflow with `input` (its one input object, without
 * `startAttributes`).
 */
export function runChild<D extends AnyWorkflowDefinition>(
  definition: D,
  input: Omit<InputOf<D>, 'startAttributes'>,
  options: ChildOptions = {},
): Promise<ResultOf<D>> {
  return executeChild(definition.type, childStart(definition, input, options)) as Promise<ResultOf<D>>;
}

/**
 * Starts `definition` as a child that outlives this workflow (ABANDON): a record left for an
 * operator, which this workflow does not wait for. Resolves with its id once started.
 */
export async function startAbandoned<D extends AnyWorkflowDefinition>(
  definition: D,
  input: Omit<InputOf<D>, 'startAttributes'>,
  options: Omit<ChildOptions, 'parentClosePolicy'> = {},
): Promise<string> {
  const started = await startChild(
    definition.type,
    childStart(definition, input, { ...options, parentClosePolicy: ParentClosePolicy.ABANDON }),
  );
  return started.workflowId;
}

function childStart<D extends AnyWorkflowDefinition>(
  definition: D,
  input: Omit<InputOf<D>, 'startAttributes'>,
  options: ChildOptions,
) {
  const workflowId = childIdOf(definition, workflowInfo().workflowId, options.suffix);
  const start = startAttributesOf(definition, workflowId, input, options);
  options.routeToParent?.addOrderNo(...(start.orderNos ?? []));
  return {
    workflowId,
    args: [{ ...input, startAttributes: start }],
    parentClosePolicy: options.parentClosePolicy ?? ParentClosePolicy.TERMINATE,
    typedSearchAttributes: startAttributes(start),
    // An attribute of the start command that replay does not compare (workflows started before it
    // replay).
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
  };
}

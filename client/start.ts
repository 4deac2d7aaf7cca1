/**
 * The one idempotent start every lifecycle client uses, with the onboarding client's policies
 * (client/onboarding.ts): the workflow id is a business key, `workflowIdConflictPolicy: 'FAIL'`
 * and `workflowIdReusePolicy: 'REJECT_DUPLICATE'`. A second start while the first runs, or after
 * it closed, is refused by the server and answered with a handle to the existing execution, so
 * one key is one execution ever: a repeated transfer request moves money once. (FAIL rather than
 * USE_EXISTING tells the caller whether its input was used.)
 *
 * Search attributes are set at start (free) and passed in the input as `startAttributes`, so the
 * workflow does not upsert them again (domain/start-attributes.ts, workflows/search.ts). The
 * input's encoded size is checked against Temporal's payload limit first (client/payload-size.ts).
 */
import { type Client, WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import {
  CARDFLOW_TASK_QUEUE,
  CardflowCardNo,
  startAttributes,
  type StartAttributes,
  type WorkflowType,
} from '../domain';
import { checkPayloadSize } from './payload-size';

export interface StartOptions {
  /** Task queue of the cardflow worker; default `CARDFLOW_TASK_QUEUE` (tests use their own). */
  taskQueue?: string;
}

export interface Started<R> {
  workflowId: string;
  handle: WorkflowHandle<(...args: unknown[]) => Promise<R>>;
  /** False when an execution with this id already existed (running or closed); this input was not used. */
  started: boolean;
}

export interface StartSpec<I> {
  type: WorkflowType;
  workflowId: string;
  input: I;
  attributes: StartAttributes & { cardNo?: string };
}

/** Starts `spec.type` under `spec.workflowId`, or returns the execution that already has that id. */
export async function startOnce<I extends object, R>(
  client: Client,
  spec: StartSpec<I>,
  opts: StartOptions = {},
): Promise<Started<R>> {
  const { cardNo, ...known } = spec.attributes;
  const pairs: SearchAttributePair[] = startAttributes(known);
  if (cardNo) pairs.push({ key: CardflowCardNo, value: cardNo });
  const input = { ...spec.input, startAttributes: spec.attributes };
  await checkPayloadSize(client, `${spec.type} ${spec.workflowId}`, input);
  try {
    const handle = await client.workflow.start(spec.type, {
      workflowId: spec.workflowId,
      taskQueue: opts.taskQueue ?? CARDFLOW_TASK_QUEUE,
      args: [input],
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: pairs,
    });
    return { workflowId: spec.workflowId, handle: handle as Started<R>['handle'], started: true };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return { workflowId: spec.workflowId, handle: client.workflow.getHandle(spec.workflowId), started: false };
  }
}

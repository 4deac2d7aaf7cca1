/**
 * The one idempotent start every lifecycle client uses: the workflow id is a business key, with
 * conflict policy FAIL and reuse policy REJECT_DUPLICATE, so a second start, during or after the
 * first, is answered with a handle to the existing execution (FAIL rather than USE_EXISTING tells
 * the caller whether its input was used): a repeated transfer request moves money once. Search
 * attributes are set at start (free) and handed in as `startAttributes`, so the workflow does not
 * upsert them again; the encoded input is checked against Temporal's payload limit first.
 */
import { randomUUID } from 'node:crypto';
import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  type WorkflowHandle,
  type WorkflowStartOptions,
} from '@temporalio/client';
import { CARDFLOW_TASK_QUEUE, WORKFLOW_TASK_TIMEOUT, type WorkflowType } from '../domain';
import { searchAttributesOf, type DefinedStartAttributes } from '../domain/workflow-definition';
import { checkPayloadSize } from './payload-size';
import { addressOf, retryWhileUnavailable, type UnavailableRetry } from '../platform/temporal/unavailable-retry';

export interface StartOptions {
  /** Task queue of the cardflow worker; default `CARDFLOW_TASK_QUEUE` (tests use their own). */
  taskQueue?: string;
  /**
   * How long the start waits for an unavailable Temporal (platform/temporal/unavailable-retry.ts);
   * default 60 s, with a warning on stderr.
   */
  whileUnavailable?: UnavailableRetry;
}

export interface Started<R> {
  workflowId: string;
  handle: WorkflowHandle<(...args: unknown[]) => Promise<R>>;
  /**
   * False when an execution with this id already existed (running or closed); this input was not
   * used.
   */
  started: boolean;
}

export interface StartSpec<I> {
  type: WorkflowType;
  workflowId: string;
  input: I;
  attributes: DefinedStartAttributes;
}

/**
 * Starts `spec.type` under `spec.workflowId`, or returns the execution that already has that id.
 */
export async function startOnce<I extends object, R>(
  client: Client,
  spec: StartSpec<I>,
  opts: StartOptions = {},
): Promise<Started<R>> {
  const pairs = searchAttributesOf(spec.attributes);
  const input = { ...spec.input, startAttributes: spec.attributes };
  await checkPayloadSize(client, `${spec.type} ${spec.workflowId}`, input);
  const { handle, started } = await startThroughOutage(
    client,
    spec.type,
    {
      workflowId: spec.workflowId,
      taskQueue: opts.taskQueue ?? CARDFLOW_TASK_QUEUE,
      args: [input],
      typedSearchAttributes: pairs,
    },
    opts.whileUnavailable,
  );
  return { workflowId: spec.workflowId, handle: handle as Started<R>['handle'], started };
}

/** The memo key of a start's own token (see {@link startThroughOutage}). */
export const START_TOKEN_MEMO = 'cardflowStartToken';

/**
 * Starts `type` with `options` under cardflow's id policies (`FAIL`, and `REJECT_DUPLICATE` unless
 * a resume asks for `ALLOW_DUPLICATE_FAILED_ONLY`), through a Temporal restart
 * (platform/temporal/unavailable-retry.ts). A start whose answer was lost (Temporal went away after
 * it committed) is retried and refused as already started: the execution then found carries this
 * call's token in its memo when it is the one this call created, so `started` tells the truth
 * either way and nothing starts twice.
 */
export async function startThroughOutage(
  client: Client,
  type: string,
  options: Omit<WorkflowStartOptions, 'workflowIdConflictPolicy' | 'workflowIdReusePolicy'>,
  whileUnavailable?: UnavailableRetry,
  reusePolicy: 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY' = 'REJECT_DUPLICATE',
): Promise<{ handle: WorkflowHandle; started: boolean }> {
  const token = randomUUID();
  const memo = { ...options.memo, [START_TOKEN_MEMO]: token };
  return retryWhileUnavailable(
    addressOf(client),
    async (attempt) => {
      try {
        const handle = await client.workflow.start(type, {
          ...options,
          memo,
          workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
          workflowIdConflictPolicy: 'FAIL',
          workflowIdReusePolicy: reusePolicy,
        });
        return { handle: handle as WorkflowHandle, started: true };
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        const handle = client.workflow.getHandle(options.workflowId);
        const started = attempt > 1 && (await handle.describe()).memo?.[START_TOKEN_MEMO] === token;
        return { handle, started };
      }
    },
    whileUnavailable,
  );
}

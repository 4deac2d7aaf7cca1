/**
 * A workflow's client functions, generated from its definition (domain/workflows.ts): the
 * idempotent start under the id its business reference makes, with the search attributes its
 * definition derives (flow, customer, the merchantOrderNos routed at start), and the handle,
 * status and result readers by the same reference. Each lifecycle client (client/transfers.ts,
 * ...) adds only its request schema and what its workflow needs beyond these.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import {
  startAttributesOf,
  type AnyWorkflowDefinition,
  type InputOf,
  type RefOf,
  type ResultOf,
  type StartContext,
  type StatusOf,
} from '../domain/workflow-definition';
import type { WorkflowType } from '../domain/workflows';
import { type StartOptions, type Started, startOnce } from './start';

/** A typed handle to a run of the workflow `D`. */
export type DefinedHandle<D extends AnyWorkflowDefinition> = WorkflowHandle<
  (input: InputOf<D>) => Promise<ResultOf<D>>
>;

/** What a start sets besides what the definition derives: the customer and, for a card's workflow, the card. */
export interface StartExtras extends Pick<StartContext, 'customerRef'> {
  /** CardflowCardNo at start (the provider's card id, never the PAN). */
  cardNo?: string;
}

function idOf<D extends AnyWorkflowDefinition>(definition: D, ref: RefOf<D>): string {
  if (!definition.id) throw new TypeError(`${definition.type} is started by its parent, not by a client`);
  return definition.id(ref);
}

/** Starts `definition` for `ref` with the validated `input`, or returns the run that already has its id. */
export function startDefined<D extends AnyWorkflowDefinition>(
  client: Client,
  definition: D,
  ref: RefOf<D>,
  input: InputOf<D>,
  extras: StartExtras,
  opts: StartOptions = {},
): Promise<Started<ResultOf<D>>> {
  const workflowId = idOf(definition, ref);
  const attributes = startAttributesOf(definition, workflowId, input, extras);
  return startOnce<InputOf<D> & object, ResultOf<D>>(
    client,
    {
      type: definition.type as WorkflowType,
      workflowId,
      input,
      attributes: extras.cardNo ? { ...attributes, cardNo: extras.cardNo } : attributes,
    },
    opts,
  );
}

/** A handle to the run of `definition` for `ref` (no call is made). */
export function definedHandle<D extends AnyWorkflowDefinition>(
  client: Client,
  definition: D,
  ref: RefOf<D>,
): DefinedHandle<D> {
  return client.workflow.getHandle(idOf(definition, ref));
}

/** The run's status query answer. */
export async function definedStatus<D extends AnyWorkflowDefinition>(
  client: Client,
  definition: D,
  ref: RefOf<D>,
): Promise<StatusOf<D>> {
  const query = definition.statusQuery;
  if (!query) throw new TypeError(`${definition.type} has no status query`);
  return (await definedHandle(client, definition, ref).query(query)) as StatusOf<D>;
}

/** Waits for the run's result; throws `WorkflowFailedError` when it failed. */
export function definedResult<D extends AnyWorkflowDefinition>(
  client: Client,
  definition: D,
  ref: RefOf<D>,
): Promise<ResultOf<D>> {
  return definedHandle(client, definition, ref).result();
}

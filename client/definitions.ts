/**
 * A workflow's client functions, generated from its definition (domain/workflows.ts): the
 * idempotent start under the id its business reference makes, with the search attributes its
 * definition derives (flow, customer, the merchantOrderNos routed at start), and the handle,
 * status and result readers by the same reference. {@link definedClient} makes the four of them
 * for a workflow that a backend starts by a request (its definition's `request`: schema and key);
 * {@link workflowClients} holds them for every such workflow, by type, so a new workflow's client
 * needs no file of its own. Only what a workflow needs beyond these is written by hand (a PIN
 * sealed, client/activation.ts; a deposit address awaited, client/wallet-funding.ts).
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { z } from 'zod';
import type { Exact } from '../domain/exact';
import {
  definedStartOf,
  type AnyWorkflowDefinition,
  type InputOf,
  type RefOf,
  type ResultOf,
  type StartContext,
  type StartRequest,
  type StatusOf,
} from '../domain/workflow-definition';
import { WORKFLOWS, type WorkflowType } from '../domain/workflows';
import { parseInput } from './inputs';
import { type StartOptions, type Started, startOnce } from './start';

/** A typed handle to a run of the workflow `D`. */
export type DefinedHandle<D extends AnyWorkflowDefinition> = WorkflowHandle<
  (input: InputOf<D>) => Promise<ResultOf<D>>
>;

/**
 * What a start sets besides what the definition derives: the customer and, for a card's workflow,
 * the card.
 */
export interface StartExtras extends Pick<StartContext, 'customerRef'> {
  /** CardflowCardNo at start (the provider's card id, never the PAN). */
  cardNo?: string;
}

function idOf<D extends AnyWorkflowDefinition>(definition: D, ref: RefOf<D>): string {
  if (!definition.id) throw new TypeError(`${definition.type} is started by its parent, not by a client`);
  return definition.id(ref);
}

/**
 * Starts `definition` for `ref` with the validated `input`, or returns the run that already has its
 * id.
 */
export function startDefined<D extends AnyWorkflowDefinition>(
  client: Client,
  definition: D,
  ref: RefOf<D>,
  input: InputOf<D>,
  extras: StartExtras,
  opts: StartOptions = {},
): Promise<Started<ResultOf<D>>> {
  const { workflowId, attributes } = definedStartOf(definition, ref, input, extras);
  return startOnce<InputOf<D> & object, ResultOf<D>>(
    client,
    { type: definition.type as WorkflowType, workflowId, input, attributes },
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

/** A definition a backend starts by a request. */
type RequestDefinition = AnyWorkflowDefinition & { readonly request: StartRequest };
type RequestSchemaOf<D extends RequestDefinition> = D['request']['schema'];

/** What a backend hands the start of `D`: its request schema's input. */
export type RequestOf<D extends RequestDefinition> = z.input<RequestSchemaOf<D>>;

/** The start, handle, status and result functions of a workflow a backend starts by a request. */
export interface DefinedClient<D extends RequestDefinition, Opts extends StartOptions> {
  /** The definition these functions are made from. */
  definition: D;
  /**
   * Validates a request with the definition's schema; throws `InvalidInputError` naming each field
   * and rule.
   */
  parse: (request: unknown) => Exact<z.output<RequestSchemaOf<D>>>;
  /**
   * Validates `request`, then starts the run its key names, or returns the one that has it
   * (`started: false`).
   */
  start: (client: Client, request: z.input<RequestSchemaOf<D>>, opts?: Opts) => Promise<Started<ResultOf<D>>>;
  handle: (client: Client, ref: RefOf<D>) => DefinedHandle<D>;
  status: (client: Client, ref: RefOf<D>) => Promise<StatusOf<D>>;
  result: (client: Client, ref: RefOf<D>) => Promise<ResultOf<D>>;
}

export interface DefinedClientOptions<D extends RequestDefinition, Opts extends StartOptions> {
  /**
   * The validated request a start uses, in place of the schema's parse alone (an activation also
   * checks its domain rules and seals a clear PIN); it contacts nothing.
   */
  prepare?: (request: unknown, opts: Opts) => object;
  /** The search attributes a start sets besides the definition's; default: the input's customer. */
  extras?: (input: InputOf<D>) => StartExtras;
}

/**
 * The client functions of `definition`, from its request (schema and key) and its id, status query
 * and types.
 */
export function definedClient<D extends RequestDefinition, Opts extends StartOptions = StartOptions>(
  definition: D,
  how: DefinedClientOptions<D, Opts> = {},
): DefinedClient<D, Opts> {
  const { schema, what, key, keyInInput } = definition.request;
  const parse = (request: unknown) => parseInput(schema as RequestSchemaOf<D>, what, request);
  const extras =
    how.extras ?? ((input: InputOf<D>) => ({ customerRef: (input as { customerRef?: string }).customerRef }));
  return {
    definition,
    parse,
    // Async, so an invalid request is a rejected promise like any other failure of a start.
    start: async (client, request, opts = {} as Opts) => {
      const valid = (how.prepare ? how.prepare(request, opts) : parse(request)) as Record<string, unknown>;
      const { [key]: ref, ...rest } = valid;
      const input = (keyInInput ? valid : rest) as InputOf<D>;
      return startDefined(client, definition, ref as RefOf<D>, input, extras(input), opts);
    },
    handle: (client, ref) => definedHandle(client, definition, ref),
    status: (client, ref) => definedStatus(client, definition, ref),
    result: (client, ref) => definedResult(client, definition, ref),
  };
}

/** The types of the workflows a backend starts by a request alone (no `prepared` step). */
type PlainRequestType = {
  [T in WorkflowType]: (typeof WORKFLOWS)[T] extends { readonly request: { readonly prepared: true } }
    ? never
    : (typeof WORKFLOWS)[T] extends RequestDefinition
      ? T
      : never;
}[WorkflowType];

/**
 * The client functions of every workflow a backend starts by its request alone, by type
 * (`workflowClients.fundTransfer.start(client, request)`): derived from the definitions, so a new
 * one is here as soon as its definition has a `request`.
 */
export const workflowClients = Object.fromEntries(
  (Object.values(WORKFLOWS) as readonly AnyWorkflowDefinition[]).flatMap((definition) =>
    definition.request && !definition.request.prepared
      ? [[definition.type, definedClient(definition as RequestDefinition)]]
      : [],
  ),
) as { readonly [T in PlainRequestType]: DefinedClient<(typeof WORKFLOWS)[T], StartOptions> };

/**
 * The shape of one workflow's definition (domain/workflows.ts): every fact about a workflow that
 * code outside its function needs, written once. The worker registers its type and versioning,
 * a parent derives a child's id, merchantOrderNos and start attributes from it
 * (workflows/calls/children.ts), the workflow sends the same keys from the same function, and
 * the client builds its start, handle, status and result functions from it (client/definitions.ts).
 *
 * Pure data and pure functions, so workflow code imports it: no Node module, nothing random.
 */
import type { SearchAttributePair } from '@temporalio/common';
import type { QueryDefinition } from '@temporalio/workflow';
import type { z } from 'zod';
import { deriveMerchantOrderNo } from './merchant-order-no';
import { CardflowCardNo } from './search-attributes';
import { startAttributes, type StartAttributes } from './start-attributes';
import type { Flow } from './workflows';
import type { ChildStep } from './workflow-ids';
import type { WorkflowVersioning } from './workflow-versioning';

export interface WorkflowDefinition<
  Type extends string = string,
  Ref = never,
  Input = unknown,
  Result = unknown,
  Status = unknown,
  Keys extends Readonly<Record<string, string>> = Readonly<Record<string, string>>,
> {
  /** The workflow type: the name its function is exported by, from a module of workflows/. */
  readonly type: Type;
  /** Its CardflowFlow value: what operators filter on to list one kind of process. */
  readonly flow: string;
  /**
   * PINNED to the build that started a run, or AUTO_UPGRADE to the current build
   * (docs/versioning.md).
   */
  readonly versioning: WorkflowVersioning;
  /**
   * The id a backend starts it under, from its business reference; absent for a workflow only a
   * parent starts.
   */
  readonly id?: (ref: Ref) => string;
  /**
   * The id suffix a parent gives it as a child: `<parentId>/<childStep>`; absent for one no parent
   * starts.
   */
  readonly childStep?: ChildStep;
  /**
   * The step name of each provider mutation it sends a merchantOrderNo for, by key name: unique
   * across every workflow, since a merchantOrderNo is unique across operation types at the
   * provider.
   */
  readonly orderSteps: { readonly [K in keyof Keys]: string };
  /**
   * The merchantOrderNos it sends, one per provider mutation, from its workflow id (derived from
   * `orderSteps`).
   */
  readonly orderKeys: (workflowId: string) => Keys;
  /**
   * The keys its starter lists in CardflowOrderNos, so the webhooks of its first mutation reach it
   * from its first moment (webhook routing); the ones it adds itself later are not listed here.
   */
  readonly routedAtStart: (keys: Keys, input: Input) => readonly string[];
  /**
   * What a backend hands its start, and which field is its business key; absent for one no backend
   * starts by a request.
   */
  readonly request?: StartRequest;
  /** The status query a client reads; absent for a workflow with none. */
  readonly statusQuery?: QueryDefinition<Status>;
  /**
   * The one-line renderings `cardflow status` and a watch print (client/workflow-status.ts);
   * absent, the status and the result print as JSON.
   */
  readonly describe?: Describe<Status, Result>;
  /**
   * The money a running one will take from an account, read from its input, so reconciliation
   * counts it as committed; absent for a workflow that moves none of its own.
   */
  readonly spends?: (input: Input) => Spending | undefined;
  /** Types only (never set): its input and result, for typed handles and child calls. */
  readonly types?: { readonly input: Input; readonly result: Result };
}

/**
 * A start request: its schema (a rule across fields is a refinement of it, so it travels with
 * the schema), how errors name it, and the field whose value the workflow id is built from.
 */
export interface StartRequest<Schema extends z.ZodType = z.ZodType, Key extends string = string> {
  readonly schema: Schema;
  /** `<what> is invalid: ...` in errors: "transfer request". */
  readonly what: string;
  /** The business key: the request field `id` takes. */
  readonly key: Key;
  /**
   * True when the key is also part of the workflow input (a card number), false when it only names
   * the run.
   */
  readonly keyInInput: boolean;
  /**
   * True when a start must prepare the request beyond its schema (an activation seals a clear
   * PIN): its client functions are written with that step (client/activation.ts), so the generic
   * ones (client/definitions.ts `workflowClients`) leave it out.
   */
  readonly prepared?: boolean;
  /**
   * The CLI's `<name> --file <example> [--watch]` start command, for a workflow that needs
   * nothing beyond its request (the file validated by `schema` before Temporal is contacted).
   */
  readonly command?: StartCommand;
}

/** A start command of the CLI: its name, the example file its usage names, and what it does. */
export interface StartCommand {
  readonly name: string;
  readonly example: string;
  readonly summary: string;
}

/** How a workflow's status and result read on one line. */
export interface Describe<Status = unknown, Result = unknown> {
  readonly status?: (status: Status) => string;
  readonly result?: (result: Result) => string;
}

/** What a running workflow will take, as reconciliation counts it. */
export interface Spending {
  /** A decimal string. */
  readonly amount: string;
  /** The account it is taken from, when the input names it. */
  readonly accountId?: string | undefined;
  /** The child it spends through once that child has started (an onboarding's card issuance). */
  readonly throughChild?: ChildStep;
}

/** Any definition, whatever its types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyWorkflowDefinition = WorkflowDefinition<string, any, any, any, any, any>;

export type InputOf<D> = D extends { readonly types?: { readonly input: infer I } } ? I : never;
export type ResultOf<D> = D extends { readonly types?: { readonly result: infer R } } ? R : never;
export type StatusOf<D> = D extends { readonly statusQuery?: QueryDefinition<infer S> } ? S : never;
export type RefOf<D> = D extends { readonly id?: (ref: infer R) => string } ? R : never;

/**
 * `defineWorkflow<Input, Result>()({...})`: the definition as written (its literal type name and
 * flow, its key names), checked against the shape, carrying its input and result types, with its
 * `orderKeys` derived from its `orderSteps`.
 */
export function defineWorkflow<Input, Result>() {
  return <
    const D extends Omit<
      WorkflowDefinition<string, never, Input, Result>,
      'types' | 'id' | 'orderSteps' | 'orderKeys' | 'routedAtStart' | 'statusQuery' | 'request' | 'describe'
    > & {
      readonly request?: StartRequest<z.ZodType<Record<string, unknown>>>;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      readonly id?: (ref: any) => string;
      readonly orderSteps: Readonly<Record<string, string>>;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      readonly routedAtStart?: (keys: any, input: Input) => readonly string[];
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      readonly statusQuery?: QueryDefinition<any>;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      readonly describe?: Describe<any, Result>;
    },
  >(
    definition: D,
  ): D & {
    readonly orderKeys: (workflowId: string) => { readonly [K in keyof D['orderSteps']]: string };
    readonly routedAtStart: (
      keys: { readonly [K in keyof D['orderSteps']]: string },
      input: Input,
    ) => readonly string[];
    readonly types?: { readonly input: Input; readonly result: Result };
  } => ({
    ...definition,
    orderKeys: (workflowId: string) =>
      Object.fromEntries(
        Object.entries(definition.orderSteps).map(([key, step]) => [key, deriveMerchantOrderNo(workflowId, step)]),
      ) as { readonly [K in keyof D['orderSteps']]: string },
    routedAtStart: definition.routedAtStart ?? (() => []),
  });
}

/** Where a start stands in the search attributes besides flow and order keys. */
export interface StartContext {
  customerRef?: string | undefined;
  /** CardflowStage at start (an onboarding's first wait). */
  stage?: string;
  /** Routing keys known only at run time (a deposit address), listed after the definition's own. */
  routeBy?: readonly string[];
}

/**
 * The search attributes `definition` starts with under `workflowId` for `input`: flow, customer,
 * keys.
 */
export function startAttributesOf<I>(
  definition: WorkflowDefinition<string, never, I> | AnyWorkflowDefinition,
  workflowId: string,
  input: I,
  context: StartContext = {},
): StartAttributes {
  const orderNos = [...definition.routedAtStart(definition.orderKeys(workflowId), input), ...(context.routeBy ?? [])];
  return {
    ...(context.customerRef ? { customerRef: context.customerRef } : {}),
    flow: definition.flow as Flow,
    ...(context.stage ? { stage: context.stage } : {}),
    ...(orderNos.length ? { orderNos } : {}),
  };
}

/** Start attributes with, for a card's workflow, the card it follows (CardflowCardNo). */
export type DefinedStartAttributes = StartAttributes & { cardNo?: string };

/** How a run of a definition starts, as every starter derives it: its id and search attributes. */
export interface DefinedStart {
  workflowId: string;
  attributes: DefinedStartAttributes;
  /** {@link attributes} as the search attribute pairs the start sets. */
  searchAttributes: SearchAttributePair[];
}

/**
 * The id `definition` runs under for `ref`, and the search attributes it starts with for `input`:
 * the one derivation behind every client start (the generic ones, the onboarding's, the card's).
 */
export function definedStartOf<D extends AnyWorkflowDefinition>(
  definition: D,
  ref: RefOf<D>,
  input: InputOf<D>,
  context: StartContext & { cardNo?: string | undefined } = {},
): DefinedStart {
  if (!definition.id) throw new TypeError(`${definition.type} is started by its parent, not by a client`);
  const workflowId = definition.id(ref);
  const derived = startAttributesOf(definition, workflowId, input, context);
  const attributes = context.cardNo ? { ...derived, cardNo: context.cardNo } : derived;
  return { workflowId, attributes, searchAttributes: searchAttributesOf(attributes) };
}

/** The search attribute pairs of `attributes`: flow, customer, stage, order keys, then the card. */
export function searchAttributesOf(attributes: DefinedStartAttributes): SearchAttributePair[] {
  const { cardNo, ...known } = attributes;
  const pairs = startAttributes(known);
  if (cardNo) pairs.push({ key: CardflowCardNo, value: cardNo });
  return pairs;
}

/**
 * `<parentId>/<childStep>`, or `<parentId>/<suffix>` for a child a parent starts once per request.
 */
export function childIdOf(definition: AnyWorkflowDefinition, parentWorkflowId: string, suffix?: string): string {
  const step = suffix ?? definition.childStep;
  if (!step) throw new TypeError(`${definition.type} is not started as a child`);
  return `${parentWorkflowId}/${step}`;
}

/**
 * Standalone freeze, unfreeze and PIN change workflows for backend services:
 * `cardFreeze`, `cardUnfreeze`, `cardPinUpdate`, id `card-<kind>-<cardNo>-<requestRef>`
 * (domain/card-operations.ts). The caller's `requestRef` is the idempotency key (client/start.ts).
 * A card with a running card entity (client/card-entity.ts) is better served by its Updates,
 * which serialize operations on the card; these are for one-off operations.
 */
import type { Client } from '@temporalio/client';
import type { z } from 'zod';
import type { KeyInput } from '../provider/keys';
import {
  cardOperationInputIssues,
  CardOperationRequestSchema,
  type CardOperationInput,
  type CardOperationKind,
  type CardOperationOutcome,
  type CardOperationStatus,
} from '../domain/card-operations';
import { parseInput, refuse, refuseIssues } from './inputs';
import { type MerchantKeySource, pinIssues, SEALED_PLACEHOLDER, sealPinForWorkflow } from './sealing';
import type { StartOptions, Started } from './start';
import { cardOperationWorkflows } from '../domain/workflows';
import { definedHandle, definedResult, definedStatus, startDefined, type DefinedHandle } from './definitions';

/** What a backend hands over (domain/card-operations.ts). */
export type CardOperationRequest = z.input<typeof CardOperationRequestSchema>;

export interface CardOperationStartOptions extends StartOptions {
  /** Needed for updatePin with a clear `pin` (client/sealing.ts). */
  merchantPublicKey?: KeyInput;
}

/**
 * Validates and seals; returns the requestRef and the workflow input. Throws `InvalidInputError`.
 */
export function cardOperationInput(
  kind: CardOperationKind,
  request: unknown,
  merchantPublicKey?: MerchantKeySource,
): { requestRef: string; input: CardOperationInput } {
  const what = `${kind} request`;
  const { requestRef, pin, ...input } = parseInput(CardOperationRequestSchema, what, request);
  if (pin !== undefined) {
    if (kind !== 'updatePin') refuse(what, 'pin', 'is only used by updatePin');
    if (input.sealedPin !== undefined) refuse(what, 'pin', 'give either pin or sealedPin, not both');
  } else if (kind !== 'updatePin' && input.sealedPin !== undefined) {
    refuse(what, 'sealedPin', 'is only used by updatePin');
  }
  // Every other rule first, so the key is read (and the PIN sealed) only for an otherwise valid
  // request.
  refuseIssues(what, [
    ...pinIssues(pin),
    ...cardOperationInputIssues(kind, pin === undefined ? input : { ...input, sealedPin: SEALED_PLACEHOLDER }),
  ]);
  if (pin !== undefined) input.sealedPin = sealPinForWorkflow(pin, merchantPublicKey);
  return { requestRef, input };
}

/**
 * Starts `kind` on `request.cardNo` keyed by `request.requestRef`, or returns the existing
 * execution.
 */
export async function startCardOperation(
  client: Client,
  kind: CardOperationKind,
  request: CardOperationRequest,
  opts: CardOperationStartOptions = {},
): Promise<Started<CardOperationOutcome>> {
  const { requestRef, input } = cardOperationInput(kind, request, opts.merchantPublicKey);
  return startDefined(
    client,
    cardOperationWorkflows[kind],
    { cardNo: input.cardNo, requestRef },
    input,
    { customerRef: input.customerRef, cardNo: input.cardNo },
    opts,
  );
}

export type CardOperationHandle = DefinedHandle<(typeof cardOperationWorkflows)[CardOperationKind]>;

export function cardOperationHandle(
  client: Client,
  kind: CardOperationKind,
  cardNo: string,
  requestRef: string,
): CardOperationHandle {
  return definedHandle(client, cardOperationWorkflows[kind], { cardNo, requestRef });
}

/** The operation's stage (the `cardOperationStatus` query). */
export async function getCardOperationStatus(
  client: Client,
  kind: CardOperationKind,
  cardNo: string,
  requestRef: string,
): Promise<CardOperationStatus> {
  return definedStatus(client, cardOperationWorkflows[kind], { cardNo, requestRef });
}

/**
 * Waits for the operation record to succeed; throws `WorkflowFailedError` (cause type
 * OperationNotAllowed, OperationFailed, ...).
 */
export async function awaitCardOperation(
  client: Client,
  kind: CardOperationKind,
  cardNo: string,
  requestRef: string,
): Promise<CardOperationOutcome> {
  return definedResult(client, cardOperationWorkflows[kind], { cardNo, requestRef });
}

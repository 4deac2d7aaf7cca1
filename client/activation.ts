/**
 * Physical card activation for backend services, workflow
 * `physicalCardActivation`, id `activation-<cardNo>` (one activation per card; a repeated start
 * returns the existing execution, client/start.ts).
 *
 * The request carries the cardholder's clear PIN (route activation_code); the client checks it is
 * 6 digits and seals it with the merchant public key (client/sealing.ts) before anything is
 * contacted, so the workflow only ever sees `sealedPin`. A `sealedPin` sealed elsewhere is
 * accepted as is.
 */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { KeyInput } from '../api/keys';
import {
  ACTIVATION_ROUTES,
  activationInputIssues,
  type PhysicalCardActivationInput,
  type PhysicalCardActivationResult,
  type PhysicalCardActivationStatus,
} from '../domain/physical-card-activation';
import { parseInput, refuse, refuseIssues, waitOverrides } from './inputs';
import { businessRef, cardNoField, amountString } from '../domain/fields';
import { type MerchantKeySource, pinIssues, SEALED_PLACEHOLDER, sealPinForWorkflow } from './sealing';
import type { StartOptions, Started } from './start';
import { physicalCardActivationWorkflow } from '../domain/workflows';
import { definedHandle, definedResult, definedStatus, startDefined, type DefinedHandle } from './definitions';

const fileSchema = z.union([
  z.object({ fileId: z.string().min(1, { message: 'must not be empty' }) }).strict(),
  z.object({ ref: z.string(), contentType: z.string().optional() }).strict(),
]);

/** What a backend or `cardflow activate --file` hands over. */
export const ActivationRequestSchema = z
  .object({
    cardNo: cardNoField,
    route: z.enum(ACTIVATION_ROUTES, { error: `must be one of ${ACTIVATION_ROUTES.join(', ')}` }),
    /** Clear 6-digit PIN; sealed here, never sent in clear. */
    pin: z.string().optional(),
    sealedPin: z.string().optional(),
    noPinPaymentAmount: amountString.optional(),
    workOrder: z
      .object({ title: z.string().optional(), content: z.string().optional(), files: z.array(fileSchema) })
      .optional(),
    customerRef: businessRef.optional(),
    deadlineMs: z.number().int().positive().optional(),
    wait: waitOverrides,
  })
  .strict();
export type ActivationRequest = z.input<typeof ActivationRequestSchema>;

export interface ActivationStartOptions extends StartOptions {
  /** Needed when the request has a clear `pin` (client/sealing.ts `merchantPublicKeyFrom`). */
  merchantPublicKey?: KeyInput;
}

const WHAT = 'activation request';

/**
 * Validates the request (schema, then the domain's rules), seals the PIN, and returns the
 * workflow input. Throws `InvalidInputError` naming each field and rule; contacts nothing.
 */
export function activationInput(request: unknown, merchantPublicKey?: MerchantKeySource): PhysicalCardActivationInput {
  const { pin, ...valid } = parseInput(ActivationRequestSchema, WHAT, request);
  if (pin !== undefined && valid.sealedPin !== undefined) refuse(WHAT, 'pin', 'give either pin or sealedPin, not both');
  const input: PhysicalCardActivationInput = { ...valid };
  if (pin !== undefined && valid.route !== 'activation_code')
    refuse(WHAT, 'pin', 'is only used by the activation_code route');
  // Every other rule first, so the key is read (and the PIN sealed) only for an otherwise valid request.
  refuseIssues(WHAT, [
    ...pinIssues(pin),
    ...activationInputIssues(pin === undefined ? input : { ...input, sealedPin: SEALED_PLACEHOLDER }),
  ]);
  if (pin !== undefined) input.sealedPin = sealPinForWorkflow(pin, merchantPublicKey);
  return input;
}

/** Starts the activation of `request.cardNo`, or returns the existing one (`started: false`). */
export async function startActivation(
  client: Client,
  request: ActivationRequest,
  opts: ActivationStartOptions = {},
): Promise<Started<PhysicalCardActivationResult>> {
  const input = activationInput(request, opts.merchantPublicKey);
  return startDefined(
    client,
    physicalCardActivationWorkflow,
    input.cardNo,
    input,
    { customerRef: input.customerRef, cardNo: input.cardNo },
    opts,
  );
}

export type ActivationHandle = DefinedHandle<typeof physicalCardActivationWorkflow>;

/** A handle to the activation of `cardNo` (no call is made). */
export function activationHandle(client: Client, cardNo: string): ActivationHandle {
  return definedHandle(client, physicalCardActivationWorkflow, cardNo);
}

/** The activation's stage (the `activationStatus` query; a billable action on Temporal Cloud). */
export async function getActivationStatus(client: Client, cardNo: string): Promise<PhysicalCardActivationStatus> {
  return definedStatus(client, physicalCardActivationWorkflow, cardNo);
}

/** Waits for the activation; throws `WorkflowFailedError` (cause type e.g. OperationFailed for a failed work order). */
export async function awaitActivation(client: Client, cardNo: string): Promise<PhysicalCardActivationResult> {
  return definedResult(client, physicalCardActivationWorkflow, cardNo);
}

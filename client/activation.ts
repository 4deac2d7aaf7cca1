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
import type { z } from 'zod';
import type { KeyInput } from '../provider/keys';
import {
  activationInputIssues,
  ActivationRequestSchema,
  type PhysicalCardActivationInput,
} from '../domain/physical-card-activation';
import { parseInput, refuse, refuseIssues } from './inputs';
import { type MerchantKeySource, pinIssues, SEALED_PLACEHOLDER, sealPinForWorkflow } from './sealing';
import type { StartOptions } from './start';
import { physicalCardActivationWorkflow } from '../domain/workflows';
import { definedClient, type DefinedHandle } from './definitions';

/** What a backend or `cardflow activate --file` hands over (domain/physical-card-activation.ts). */
export type ActivationRequest = z.input<typeof ActivationRequestSchema>;

export interface ActivationStartOptions extends StartOptions {
  /** Needed when the request has a clear `pin` (client/sealing.ts `merchantPublicKeyFrom`). */
  merchantPublicKey?: KeyInput;
}

const WHAT = physicalCardActivationWorkflow.request.what;

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
  // Every other rule first, so the key is read (and the PIN sealed) only for an otherwise valid
  // request.
  refuseIssues(WHAT, [
    ...pinIssues(pin),
    ...activationInputIssues(pin === undefined ? input : { ...input, sealedPin: SEALED_PLACEHOLDER }),
  ]);
  if (pin !== undefined) input.sealedPin = sealPinForWorkflow(pin, merchantPublicKey);
  return input;
}

const activations = definedClient(physicalCardActivationWorkflow, {
  prepare: (request, opts: ActivationStartOptions) => activationInput(request, opts.merchantPublicKey),
  extras: (input) => ({ customerRef: input.customerRef, cardNo: input.cardNo }),
});

/** Starts the activation of `request.cardNo`, or returns the existing one (`started: false`). */
export const startActivation = activations.start;

export type ActivationHandle = DefinedHandle<typeof physicalCardActivationWorkflow>;

/** A handle to the activation of `cardNo` (no call is made). */
export const activationHandle = activations.handle;

/** The activation's stage (the `activationStatus` query; a billable action on Temporal Cloud). */
export const getActivationStatus = activations.status;

/**
 * Waits for the activation; throws `WorkflowFailedError` (cause type e.g. OperationFailed for a
 * failed work order).
 */
export const awaitActivation = activations.result;

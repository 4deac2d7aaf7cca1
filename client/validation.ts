/**
 * Validation of what a backend or the CLI hands to a workflow, before anything starts: each
 * problem names the field path and the rule (docs/architecture.md, Validation errors), never the
 * value, which may be personal data.
 */
import { exact } from '../domain/exact';
import { FailureTypes } from '../domain/failure-types';
import type { z } from 'zod';
import type { KeyInput } from '../provider/keys';
import { PIN_RE } from '../provider/rules';
import { encryptSensitive } from '../provider/sensitive';
import {
  CardholderDataSchema,
  type CardholderCorrection,
  OnboardingInputSchema,
  type OnboardingInput,
} from '../domain';
import { OnboardingActivationRequestSchema, type OnboardingActivationRequest } from '../domain/onboarding-physical';
import { unknownFieldLines } from './unknown-fields';

/** Input refused before anything was started or sent; `problems` are `field.path: rule` lines. */
export class InvalidInputError extends Error {
  readonly type = FailureTypes.invalidInput;
  constructor(
    readonly what: string,
    readonly problems: readonly string[],
  ) {
    super(`${what} is invalid:\n- ${problems.join('\n- ')}`);
    this.name = 'InvalidInputError';
  }
}

/** `field.path: rule` for each issue; `prefix` is prepended to every path. */
export function issueLines(error: z.ZodError, prefix = ''): string[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

/** How a clear PIN is sealed before anything leaves the client. */
export interface SealingOptions {
  /** The merchant public key; needed only when a request carries a clear `pin`. */
  merchantPublicKey?: KeyInput;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A request with a clear `pin` becomes one with `sealedPin` (the PIN encrypted with the merchant
 * public key, provider/sensitive.ts), so the clear PIN never reaches Temporal. Problems are
 * reported as `prefix.pin: rule` lines, never with the PIN.
 */
function sealClearPin(request: unknown, opts: SealingOptions, prefix: string, problems: string[]): unknown {
  if (!isRecord(request) || !('pin' in request)) return request;
  const { pin, ...rest } = request;
  const field = [prefix, 'pin'].filter(Boolean).join('.');
  if (rest.sealedPin !== undefined) problems.push(`${field}: give either pin or sealedPin, not both`);
  else if (rest.route !== 'activation_code') problems.push(`${field}: is only used by the activation_code route`);
  else if (typeof pin !== 'string' || !PIN_RE.test(pin)) problems.push(`${field}: must be exactly 6 digits`);
  else if (opts.merchantPublicKey === undefined)
    problems.push(
      `${field}: needs the merchant public key to be sealed (CARDFLOW_MERCHANT_PUBLIC_KEY), or give sealedPin`,
    );
  else return { ...rest, sealedPin: encryptSensitive(pin, opts.merchantPublicKey) };
  return rest;
}

/** A refused clear `pin` already explains the missing `sealedPin`: report it once. */
function withoutSealedPinIfPinRefused(lines: string[], pinProblems: readonly string[]): string[] {
  return pinProblems.length ? lines.filter((line) => !/(^|\.)sealedPin: /.test(line)) : lines;
}

/**
 * The onboarding input, validated with the domain's schema; throws {@link InvalidInputError}.
 * A clear `activation.pin` is sealed with `opts.merchantPublicKey` first.
 */
export function parseOnboardingInput(input: unknown, opts: SealingOptions = {}): OnboardingInput {
  const problems: string[] = [];
  const value =
    isRecord(input) && 'activation' in input
      ? { ...input, activation: sealClearPin(input.activation, opts, 'activation', problems) }
      : input;
  const parsed = OnboardingInputSchema.safeParse(value);
  if (!parsed.success) problems.push(...withoutSealedPinIfPinRefused(issueLines(parsed.error), problems));
  problems.push(...unknownFieldLines(OnboardingInputSchema, value, 'the onboarding input'));
  if (problems.length || !parsed.success) throw new InvalidInputError('onboarding input', problems);
  return exact(parsed.data);
}

/**
 * The activation request of an onboarding's physical card (`activateCard` Update, or the input's
 * `activation`): route activation_code with `sealedPin` (or a clear 6-digit `pin`, sealed here
 * with `opts.merchantPublicKey`) and optional noPinPaymentAmount, or route work_order with files.
 * Throws {@link InvalidInputError} naming each field and rule; contacts nothing.
 */
export function parseActivationRequest(input: unknown, opts: SealingOptions = {}): OnboardingActivationRequest {
  const problems: string[] = [];
  const value = sealClearPin(input, opts, '', problems);
  const parsed = OnboardingActivationRequestSchema.safeParse(value);
  if (!parsed.success) problems.push(...withoutSealedPinIfPinRefused(issueLines(parsed.error), problems));
  problems.push(...unknownFieldLines(OnboardingActivationRequestSchema, value, 'the activation request'));
  if (problems.length || !parsed.success) throw new InvalidInputError('activation request', problems);
  return exact(parsed.data);
}

/**
 * A cardholder correction (`{ holder: {...} }`), validated like the original data; throws {@link
 * InvalidInputError}.
 */
export function parseCardholderCorrection(input: unknown): CardholderCorrection {
  const holder = input !== null && typeof input === 'object' ? (input as { holder?: unknown }).holder : undefined;
  const parsed = CardholderDataSchema.safeParse(holder);
  const problems = [
    ...(parsed.success ? [] : issueLines(parsed.error, 'holder')),
    ...unknownFieldLines(CardholderDataSchema, holder, 'the cardholder data', 'holder'),
  ];
  if (problems.length || !parsed.success) throw new InvalidInputError('cardholder correction', problems);
  return { holder: parsed.data };
}

/**
 * Validation of what a backend or the CLI hands to a workflow, before anything starts: each
 * problem names the field path and the rule (docs/architecture.md, Validation errors), never the
 * value, which may be personal data.
 */
import type { z } from 'zod';
import { CardholderDataSchema, type CardholderCorrection, OnboardingInputSchema, type OnboardingInput } from '../domain';

/** Input refused before anything was started or sent; `problems` are `field.path: rule` lines. */
export class InvalidInputError extends Error {
  readonly type = 'InvalidInput';
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

/** The onboarding input, validated with the domain's schema; throws {@link InvalidInputError}. */
export function parseOnboardingInput(input: unknown): OnboardingInput {
  const parsed = OnboardingInputSchema.safeParse(input);
  if (!parsed.success) throw new InvalidInputError('onboarding input', issueLines(parsed.error));
  return parsed.data;
}

/** A cardholder correction (`{ holder: {...} }`), validated like the original data; throws {@link InvalidInputError}. */
export function parseCardholderCorrection(input: unknown): CardholderCorrection {
  const holder = input !== null && typeof input === 'object' ? (input as { holder?: unknown }).holder : undefined;
  const parsed = CardholderDataSchema.safeParse(holder);
  if (!parsed.success) throw new InvalidInputError('cardholder correction', issueLines(parsed.error, 'holder'));
  return { holder: parsed.data };
}

/**
 * Shared pieces of the lifecycle clients' input checks (docs/architecture.md, Validation errors):
 * field schemas, the business-reference rule that turns a caller's key into a workflow id, and
 * the conversion of zod issues and the domain's `FieldIssue`s into one {@link InvalidInputError}
 * naming each field and rule, never a value (a PIN or personal data could be one).
 */
import { z } from 'zod';
import { CUSTOMER_REF_MAX, CUSTOMER_REF_RE, type FieldIssue, OnboardingInputSchema } from '../domain';
import { InvalidInputError, issueLines } from './validation';

/** Long ids (accountId, cardTypeId) are digit strings (docs/architecture.md, Ids). */
export const digitsId = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be an id of digits (a string)') })
  .regex(/^\d{1,19}$/, { message: 'must be an id of digits' });
/** Money is a decimal string, never a JS number (docs/architecture.md, Money). */
export const decimalAmount = z
  .string({
    error: (iss) =>
      iss.input === undefined ? 'is required' : 'must be a decimal string such as "10.50" (not a number)',
  })
  .regex(/^(0|[1-9]\d*)(\.\d+)?$/, { message: 'must be a decimal string such as "10.50"' });
export const positiveAmount = decimalAmount.refine((v) => /[1-9]/.test(v), { message: 'must be greater than 0' });
/** The card id the provider returns (`cardNo`, spec: Card); it becomes part of workflow ids. */
export const cardNoField = z
  .string({ error: 'is required' })
  .regex(/^[A-Za-z0-9]{1,64}$/, { message: 'must be a card number (letters and digits)' });

/**
 * A caller's business key (transferRef, fundingRef, requestRef, customerRef): it becomes part of
 * a workflow id, so the onboarding customerRef rule applies (letters, digits, `_`, `.`, `-`).
 */
export const businessRef = z
  .string({ error: 'is required' })
  .min(1, { message: 'is required' })
  .max(CUSTOMER_REF_MAX, { message: `length must be 1 to ${CUSTOMER_REF_MAX} characters` })
  .regex(CUSTOMER_REF_RE, {
    message: 'must start with a letter or digit and contain only letters, digits, "_", "." and "-"',
  });

/** Wait overrides, the same rule the onboarding input has (one source of truth). */
export const waitOverrides = OnboardingInputSchema.shape.wait;

/** Parses `input` with `schema`; throws {@link InvalidInputError} naming every field and rule. */
export function parseInput<S extends z.ZodType>(schema: S, what: string, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new InvalidInputError(what, issueLines(parsed.error));
  return parsed.data;
}

/** Parses one named value (a command-line argument, an id) with `schema`; issues are named `field: rule`. */
export function parseField<S extends z.ZodType>(schema: S, field: string, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InvalidInputError(field, issueLines(parsed.error, field));
  return parsed.data;
}

/** Throws {@link InvalidInputError} when the domain's own checks found issues. */
export function refuseIssues(what: string, issues: readonly FieldIssue[]): void {
  if (issues.length)
    throw new InvalidInputError(
      what,
      issues.map((i) => `${i.path}: ${i.message}`),
    );
}

/** Throws {@link InvalidInputError} for one field and rule. */
export function refuse(what: string, path: string, rule: string): never {
  throw new InvalidInputError(what, [`${path}: ${rule}`]);
}

/**
 * The cardholder data a backend hands to an onboarding, in program types (plain strings, safe
 * in workflow history), and the zod schemas that validate it: at start, and in the validator of
 * the correction Update after a reject. The shape follows the card type's
 * `metadata.cardHolderModel` (B2B or B2C), or IDV when the backend holds an external identity
 * verification share token (spec: Cardholders, v2 create / create idv).
 *
 * The provider client validates the wire request again (`provider/schemas/cardholder-requests.ts`);
 * these schemas exist so a bad field is refused in the workflow, before anything is sent,
 * with a message naming the field.
 */
import { z } from 'zod';
import {
  addressFields,
  b2cIdentityFields,
  b2cPersonFields,
  checkB2c,
  checkFullName,
  holderFields,
  profileFields,
} from '../provider/schemas/cardholder-requests';
import { TOKEN_TEXT_MAX } from '../provider/rules';
import { ipv4, requiredTextOf } from '../provider/schemas/fields';
import { checkDocuments, documentFields } from './holder-documents';

export const CARDHOLDER_SHAPES = ['B2B', 'B2C', 'IDV'] as const;
export type CardholderShape = (typeof CARDHOLDER_SHAPES)[number];

// The field rules are the provider request's own (provider/schemas/cardholder-requests.ts): one
// source of truth, so the workflow refuses exactly what the provider client would.
export const B2bCardholderSchema = z
  .object({ shape: z.literal('B2B'), ...holderFields, ...addressFields })
  .superRefine(checkFullName);

export const B2cCardholderSchema = z
  .object({
    shape: z.literal('B2C'),
    ...holderFields,
    ...addressFields,
    ...b2cPersonFields,
    ...profileFields,
    ...b2cIdentityFields,
    // Each identity document by the provider's fileId or by a stored file (holder-documents.ts).
    ...documentFields,
  })
  .superRefine((value, ctx) => {
    checkB2c(value, ctx);
    checkDocuments(value, ctx);
  });

export const IdvCardholderSchema = z
  .object({
    shape: z.literal('IDV'),
    ...holderFields,
    ...profileFields,
    /** Share token of an external identity verification. */
    idvShareToken: requiredTextOf(TOKEN_TEXT_MAX),
    ipAddress: ipv4,
  })
  .superRefine(checkFullName);

/** Any cardholder shape; `shape` says which. */
export const CardholderDataSchema = z.discriminatedUnion(
  'shape',
  [B2bCardholderSchema, B2cCardholderSchema, IdvCardholderSchema],
  {
    error: 'shape: must be B2B, B2C or IDV',
  },
);

export type B2bCardholder = z.output<typeof B2bCardholderSchema>;
export type B2cCardholder = z.output<typeof B2cCardholderSchema>;
export type IdvCardholder = z.output<typeof IdvCardholderSchema>;
export type CardholderData = z.output<typeof CardholderDataSchema>;

/** A rule a value breaks, with the dotted field path (`holder.email`). */
export interface FieldIssue {
  path: string;
  message: string;
}

/** Validates cardholder data; issues carry `prefix.field` paths, never the values. */
export function cardholderDataIssues(data: unknown, prefix = 'holder'): FieldIssue[] {
  const parsed = CardholderDataSchema.safeParse(data);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    message: issue.message,
  }));
}

/** One line per issue: `holder.email: must be an email address ...`. */
export function describeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

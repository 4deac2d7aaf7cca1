/**
 * The cardholder data a backend hands to an onboarding, in program types (plain strings, safe
 * in workflow history), and the zod schemas that validate it: at start, and in the validator of
 * the correction Update after a reject. The shape follows the card type's
 * `metadata.cardHolderModel` (B2B or B2C), or IDV when the backend holds an external identity
 * verification share token (spec: Cardholders, v2 create / create idv).
 *
 * The provider client validates the wire request again (`api/schemas/cardholder-requests.ts`);
 * these schemas exist so a bad field is refused in the workflow, before anything is sent,
 * with a message naming the field.
 */
import { z } from 'zod';
import {
  ADDRESS_RE,
  GENDERS,
  HOLDER_ADDRESS,
  HOLDER_AREA_CODE,
  HOLDER_EMAIL,
  HOLDER_FULL_NAME_MAX,
  HOLDER_ID_NUMBER,
  HOLDER_MOBILE,
  HOLDER_NAME,
  HOLDER_POST_CODE,
  ID_TYPES,
  POST_CODE_RE,
} from '../api/rules';
import { allowedIdTypes } from '../api/schemas/cardholder-requests';
import { allowedRegion, calendarDate, email, englishName, englishText, ipv4, oneOf, requiredText } from '../api/schemas/fields';
import { lengthBetween } from '../api/schemas/primitives';

export const CARDHOLDER_SHAPES = ['B2B', 'B2C', 'IDV'] as const;
export type CardholderShape = (typeof CARDHOLDER_SHAPES)[number];

const contact = {
  /** From the card type's supportHolderAreaCode, e.g. "+1". */
  areaCode: lengthBetween(HOLDER_AREA_CODE.min, HOLDER_AREA_CODE.max),
  mobile: lengthBetween(HOLDER_MOBILE.min, HOLDER_MOBILE.max),
  email: lengthBetween(HOLDER_EMAIL.min, HOLDER_EMAIL.max).pipe(email),
  firstName: englishName(HOLDER_NAME),
  lastName: englishName(HOLDER_NAME),
};

const address = {
  birthday: calendarDate,
  /** Billing country, alpha-2, from supportHolderRegin. */
  country: allowedRegion,
  /** City code from the provider's city list. */
  town: requiredText,
  address: lengthBetween(HOLDER_ADDRESS.min, HOLDER_ADDRESS.max).regex(ADDRESS_RE, {
    message: 'must contain only letters, digits, hyphens and spaces',
  }),
  postCode: lengthBetween(HOLDER_POST_CODE.min, HOLDER_POST_CODE.max).regex(POST_CODE_RE, {
    message: 'must contain only letters and digits',
  }),
};

const profile = {
  annualSalary: requiredText,
  accountPurpose: englishText,
  expectedMonthlyVolume: requiredText,
};

function checkFullName(value: { firstName: string; lastName: string }, ctx: z.RefinementCtx): void {
  if (value.firstName.length + 1 + value.lastName.length > HOLDER_FULL_NAME_MAX) {
    ctx.addIssue({
      code: 'custom',
      path: ['lastName'],
      message: `firstName and lastName together (with the space between them) must be at most ${HOLDER_FULL_NAME_MAX} characters`,
    });
  }
}

export const B2bCardholderSchema = z.object({ shape: z.literal('B2B'), ...contact, ...address }).superRefine(checkFullName);

export const B2cCardholderSchema = z
  .object({
    shape: z.literal('B2C'),
    ...contact,
    ...address,
    nationality: allowedRegion,
    gender: oneOf(GENDERS),
    /** occupationCode from the occupation list. */
    occupation: requiredText,
    ...profile,
    idType: oneOf(ID_TYPES),
    idNumber: lengthBetween(HOLDER_ID_NUMBER.min, HOLDER_ID_NUMBER.max),
    issueDate: calendarDate,
    idNoExpiryDate: calendarDate,
    /** File ids from upload: ID front, back, and the face photo. */
    idFrontId: requiredText,
    idBackId: requiredText,
    idHoldId: requiredText,
    ipAddress: ipv4,
  })
  .superRefine((value, ctx) => {
    checkFullName(value, ctx);
    const allowed = allowedIdTypes(value.nationality);
    if (!allowed.includes(value.idType)) {
      ctx.addIssue({ code: 'custom', path: ['idType'], message: `must be one of ${allowed.join(', ')} for nationality ${value.nationality}` });
    }
  });

export const IdvCardholderSchema = z
  .object({
    shape: z.literal('IDV'),
    ...contact,
    ...profile,
    /** Share token of an external identity verification. */
    idvShareToken: requiredText,
    ipAddress: ipv4,
  })
  .superRefine(checkFullName);

/** Any cardholder shape; `shape` says which. */
export const CardholderDataSchema = z.discriminatedUnion('shape', [B2bCardholderSchema, B2cCardholderSchema, IdvCardholderSchema], {
  error: 'shape: must be B2B, B2C or IDV',
});

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

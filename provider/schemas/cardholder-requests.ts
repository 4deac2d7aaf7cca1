/**
 * Cardholder create/update requests (spec: Cardholders). Shared rules: English-only names,
 * each 2 to 32 long and together at most 32 (see HOLDER_FULL_NAME_MAX for how the joining
 * space counts); alpha-2 nationality and country outside the restricted list; real
 * yyyy-MM-dd dates; address and postCode patterns; B2C ID type by region.
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
  HONG_KONG,
  ID_TYPES,
  ID_TYPES_HONG_KONG,
  ID_TYPES_OTHER,
  POST_CODE_RE,
  TOKEN_TEXT_MAX,
} from '../rules';
import {
  allowedRegion,
  calendarDate,
  email,
  englishName,
  englishText,
  ipv4,
  merchantOrderNo,
  oneOf,
  paging,
  requiredText,
  requiredTextOf,
  optionalText,
} from './fields';
import { lengthBetween, reqLong } from './primitives';

/** Contact and name fields shared by every cardholder shape (spec: Cardholders, request rules). */
export const holderFields = {
  /** From the card type's supportHolderAreaCode. */
  areaCode: lengthBetween(HOLDER_AREA_CODE.min, HOLDER_AREA_CODE.max),
  mobile: lengthBetween(HOLDER_MOBILE.min, HOLDER_MOBILE.max),
  /** Receives the verification code; unique per cardTypeId. */
  email: lengthBetween(HOLDER_EMAIL.min, HOLDER_EMAIL.max).pipe(email),
  firstName: englishName(HOLDER_NAME),
  lastName: englishName(HOLDER_NAME),
};

/** Birthday and billing address, shared by B2B, B2C and v1. */
export const addressFields = {
  birthday: calendarDate,
  /** Billing country, from supportHolderRegin. */
  country: allowedRegion,
  /** City code from the city list (the provider answers 40002 otherwise). */
  town: requiredText,
  address: lengthBetween(HOLDER_ADDRESS.min, HOLDER_ADDRESS.max).regex(ADDRESS_RE, {
    message: 'must contain only letters, digits, hyphens and spaces',
  }),
  postCode: lengthBetween(HOLDER_POST_CODE.min, HOLDER_POST_CODE.max).regex(POST_CODE_RE, {
    message: 'must contain only letters and digits',
  }),
};

/** Nationality from supportHolderRegin (B2C and v1). */
const nationality = allowedRegion;

/** Profile texts shared by B2C and the IDV shapes. */
export const profileFields = {
  /** Text such as an amount and a currency. */
  annualSalary: requiredText,
  accountPurpose: englishText,
  /** Amount and currency text. */
  expectedMonthlyVolume: requiredText,
};

/** B2C identity document and origin. */
export const b2cIdentityFields = {
  idType: oneOf(ID_TYPES),
  idNumber: lengthBetween(HOLDER_ID_NUMBER.min, HOLDER_ID_NUMBER.max),
  issueDate: calendarDate,
  idNoExpiryDate: calendarDate,
  /** File ids from upload: front, back, face photo. */
  idFrontId: requiredText,
  idBackId: requiredText,
  idHoldId: requiredText,
  ipAddress: ipv4,
};

const createKeys = { merchantOrderNo: merchantOrderNo(), cardTypeId: reqLong };
const updateKeys = { holderId: reqLong };

interface Names {
  firstName: string;
  lastName: string;
}

/** firstName + space + lastName at most HOLDER_FULL_NAME_MAX; the issue is put on lastName. */
export function checkFullName(value: Names, ctx: z.RefinementCtx): void {
  if (value.firstName.length + 1 + value.lastName.length > HOLDER_FULL_NAME_MAX) {
    ctx.addIssue({
      code: 'custom',
      path: ['lastName'],
      message: `firstName and lastName together (with the space between them) must be at most ${HOLDER_FULL_NAME_MAX} characters`,
    });
  }
}

interface Identity {
  nationality: string;
  idType?: (typeof ID_TYPES)[number] | undefined;
}

/**
 * ID type by region: Hong Kong takes PASSPORT or HK_HKID; every other region PASSPORT, DLN or
 * GOVERNMENT_ISSUED_ID_CARD.
 */
export function allowedIdTypes(region: string): readonly string[] {
  return region === HONG_KONG ? ID_TYPES_HONG_KONG : ID_TYPES_OTHER;
}

function checkIdType(value: Identity, ctx: z.RefinementCtx): void {
  if (value.idType === undefined) return;
  const allowed = allowedIdTypes(value.nationality);
  if (!allowed.includes(value.idType)) {
    ctx.addIssue({
      code: 'custom',
      path: ['idType'],
      message: `must be one of ${allowed.join(', ')} for nationality ${value.nationality}`,
    });
  }
}

/** The B2C cross-field rules: full name length and ID type by nationality. */
export function checkB2c(value: Names & Identity, ctx: z.RefinementCtx): void {
  checkFullName(value, ctx);
  checkIdType(value, ctx);
}

// ---------------------------------------------------------------------------
// Deprecated v1

export const CreateCardholderV1RequestSchema = z
  .object({ ...createKeys, ...holderFields, ...addressFields, nationality })
  .superRefine(checkFullName);

export const UpdateCardholderV1RequestSchema = z
  .object({ ...updateKeys, ...holderFields, ...addressFields, nationality })
  .superRefine(checkFullName);

// ---------------------------------------------------------------------------
// v2: the card type's metadata.cardHolderModel selects the shape

/** The person fields only B2C has (besides its identity document). */
export const b2cPersonFields = {
  nationality,
  gender: oneOf(GENDERS),
  /** occupationCode from the occupation list. */
  occupation: requiredText,
};

const b2b = { cardHolderModel: z.literal('B2B'), ...holderFields, ...addressFields };
const b2c = {
  cardHolderModel: z.literal('B2C'),
  ...holderFields,
  ...addressFields,
  ...b2cPersonFields,
  ...profileFields,
};

const cardHolderModelError = { error: 'must be B2B or B2C (the card type metadata.cardHolderModel)' };

export const CreateCardholderRequestSchema = z.discriminatedUnion(
  'cardHolderModel',
  [
    z.object({ ...createKeys, ...b2b }).superRefine(checkFullName),
    z.object({ ...createKeys, ...b2c, ...b2cIdentityFields }).superRefine(checkB2c),
  ],
  cardHolderModelError,
);
export type CreateCardholderRequest = z.input<typeof CreateCardholderRequestSchema>;

/**
 * Update (allowed only when status=reject). The spec does not show the B2C fields after
 * expectedMonthlyVolume for update; an earlier listing had the identity fields and an
 * optional ssn, so they are accepted, checked when present, and not required.
 */
export const UpdateCardholderRequestSchema = z.discriminatedUnion(
  'cardHolderModel',
  [
    z.object({ ...updateKeys, ...b2b }).superRefine(checkFullName),
    z
      .object({
        ...updateKeys,
        ...b2c,
        idType: b2cIdentityFields.idType.optional(),
        idNumber: b2cIdentityFields.idNumber.optional(),
        ssn: optionalText,
        issueDate: calendarDate.optional(),
        idNoExpiryDate: calendarDate.optional(),
        idFrontId: requiredText.optional(),
        idBackId: requiredText.optional(),
        idHoldId: requiredText.optional(),
        ipAddress: ipv4.optional(),
      })
      .superRefine(checkB2c),
  ],
  cardHolderModelError,
);
export type UpdateCardholderRequest = z.input<typeof UpdateCardholderRequestSchema>;

// ---------------------------------------------------------------------------
// v2 with an external identity verification (IDV) share token

const idvFields = {
  ...holderFields,
  ...profileFields,
  /** Share token of an external identity verification. */
  idvShareToken: requiredTextOf(TOKEN_TEXT_MAX),
  ipAddress: ipv4,
};

export const CreateCardholderIdvRequestSchema = z.object({ ...createKeys, ...idvFields }).superRefine(checkFullName);

export const UpdateCardholderIdvRequestSchema = z.object({ ...updateKeys, ...idvFields }).superRefine(checkFullName);

// ---------------------------------------------------------------------------
// Query

/** areaCode and mobile identify a phone together: pass both or neither. */
export const QueryCardholdersRequestSchema = z
  .object({
    ...paging,
    holderId: reqLong.optional(),
    areaCode: optionalText,
    mobile: optionalText,
    email: optionalText,
    merchantOrderNo: optionalText,
  })
  .superRefine((value, ctx) => {
    if ((value.areaCode === undefined) !== (value.mobile === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [value.areaCode === undefined ? 'areaCode' : 'mobile'],
        message: 'areaCode and mobile must be given together (both or neither)',
      });
    }
  });

/**
 * Request field builders shared by the request schemas: each enforces one rule of the spec
 * with a message that names the rule (zod carries the field name in `issue.path`).
 * Limits come from `provider/rules.ts`.
 */
import { z } from 'zod';
import { Decimal } from 'decimal.js';
import { LosslessNumber } from '../json';
import {
  ALPHA2_RE,
  DATE_RE,
  DAY_MS,
  EMAIL_RE,
  ENGLISH_NAME_RE,
  FREE_TEXT_MAX,
  ENGLISH_TEXT_RE,
  IPV4_RE,
  MERCHANT_ORDER_NO,
  PAGE_NUM_DEFAULT,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PIN_RE,
  RESTRICTED_REGIONS,
  isRestrictedRegion,
} from '../rules';
import { lengthBetween, reqDecimal, reqInt, textChecked } from './primitives';

/** Strict enum whose message lists the allowed values. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

/**
 * A code the wire may send as a JSON number or a string (city codes, parentCode 0); a string
 * inside.
 */
export const codeText = z.union([z.string(), z.instanceof(LosslessNumber)]).transform((v) => String(v));

/**
 * A required, non-empty text of at most `max` characters (FREE_TEXT_MAX unless the spec says),
 * under the character policy.
 */
export function requiredTextOf(max: number) {
  const lengthRule = `length must be at most ${max} characters`;
  return textChecked(
    z
      .string({ error: 'is required (a string)' })
      .min(1, { message: 'must not be empty' })
      .max(max, { message: lengthRule }),
    max,
    lengthRule,
  );
}

export const requiredText = requiredTextOf(FREE_TEXT_MAX);

/** An optional text (a query filter, a remark) under the same rules; empty allowed. */
export const optionalText = lengthBetween(0, FREE_TEXT_MAX).optional();

/** merchantOrderNo with the operation's length bounds (20 to 40 unless stated). */
export function merchantOrderNo(bounds: { min: number; max: number } = MERCHANT_ORDER_NO) {
  return lengthBetween(bounds.min, bounds.max);
}

/**
 * BigDecimal amount that must be greater than zero (a zero or negative movement of money is never
 * valid).
 */
export const reqPositiveAmount = reqDecimal.refine((n) => new Decimal(n.value).gt(0), {
  message: 'must be greater than 0',
});

/** BigDecimal amount within [min, max] inclusive. */
export function reqAmountBetween(min: string, max: string) {
  return reqDecimal.refine((n: LosslessNumber) => new Decimal(n.value).gte(min) && new Decimal(n.value).lte(max), {
    message: `must be between ${min} and ${max}`,
  });
}

export const pin = z.string({ error: 'is required (a string)' }).regex(PIN_RE, { message: 'must be exactly 6 digits' });

/** yyyy-MM-dd that names a real calendar day. */
export const calendarDate = z
  .string({ error: 'is required (a yyyy-MM-dd string)' })
  .refine(isCalendarDate, { message: 'must be a real date in the form yyyy-MM-dd' });

export function isCalendarDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export const email = z
  .string({ error: 'is required (a string)' })
  .regex(EMAIL_RE, { message: 'must be an email address such as name@example.com' });

export const ipv4 = z
  .string({ error: 'is required (a string)' })
  .regex(IPV4_RE, { message: 'must be an IPv4 address' });

export const alpha2 = z
  .string({ error: 'is required (a string)' })
  .regex(ALPHA2_RE, { message: 'must be an ISO 3166-1 alpha-2 code (two capital letters)' });

/** Alpha-2 code outside the restricted countries/regions (nationality, country). */
export const allowedRegion = alpha2.refine((c) => !isRestrictedRegion(c), {
  error: (issue) => {
    const code = issue.input as keyof typeof RESTRICTED_REGIONS;
    return `${RESTRICTED_REGIONS[code]} (${code}) is a restricted country/region and is not accepted`;
  },
});

/** A name of English letters, each name within the given length. */
export function englishName(bounds: { min: number; max: number }) {
  return lengthBetween(bounds.min, bounds.max).regex(ENGLISH_NAME_RE, {
    message: 'must use English letters only (spaces, hyphens and apostrophes allowed between letters)',
  });
}

export const englishText = requiredText.regex(ENGLISH_TEXT_RE, { message: 'must be English text only' });

// ---------------------------------------------------------------------------
// Paging and time ranges

const pageNumber = reqInt.refine((n) => n >= 1, { message: 'must be 1 or more' });

export const pageNum = pageNumber.default(PAGE_NUM_DEFAULT);

export function pageSize(max: number) {
  return reqInt.refine((n) => n >= 1 && n <= max, { message: `must be 1 to ${max}` }).default(PAGE_SIZE_DEFAULT);
}

/** The paging of most paged queries: pageNum (default 1) and pageSize (default 10, at most 100). */
export const paging = { pageNum, pageSize: pageSize(PAGE_SIZE_MAX) };

/** Optional page number without a default (work-order list takes pageNum or pageNo). */
export const optionalPageNumber = pageNumber.optional();

export const timestamp = reqInt.refine((n) => n >= 0, { message: 'must be epoch milliseconds (0 or more)' });

interface TimeRange {
  startTime?: number | undefined;
  endTime?: number | undefined;
}

/**
 * startTime <= endTime, and at most `maxDays` apart when both are given (when one is
 * missing the provider applies its default window, which is within the cap).
 */
function checkTimeRange({ startTime, endTime }: TimeRange, ctx: z.RefinementCtx, maxDays: number | undefined): void {
  if (startTime === undefined || endTime === undefined) return;
  if (startTime > endTime) {
    ctx.addIssue({ code: 'custom', path: ['startTime'], message: 'must not be after endTime' });
  } else if (maxDays !== undefined && endTime - startTime > maxDays * DAY_MS) {
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: `time range must be at most ${maxDays} days` });
  }
}

/**
 * A paged query over a time range, as the spec writes its record, ledger and wallet queries: the
 * {@link paging}, the query's own filters, and an optional startTime and endTime, in order and at
 * most `maxDays` apart (no cap when absent).
 */
export function pagedTimeRangeQuery<Filters extends z.ZodRawShape>(filters: Filters, maxDays?: number) {
  return (
    z
      .object({ ...paging, ...filters, startTime: timestamp.optional(), endTime: timestamp.optional() })
      // The shape ends with the two times whatever the filters are; zod cannot see that through the
      // generic.
      .superRefine((value, ctx) => checkTimeRange(value as TimeRange, ctx, maxDays))
  );
}

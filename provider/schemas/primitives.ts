/**
 * Field-level zod primitives shared by every schema of the spec.
 *
 * Inside the program, money (BigDecimal) is a decimal string and a Long id is a digit
 * string; timestamps and small Integers are JS numbers (always safe integers).
 * Response primitives accept what the wire may carry (a LosslessNumber from `parseJson`,
 * or a string) and output those program types. Request primitives (`req*`) accept the
 * program types and output {@link LosslessNumber}s, so a parsed request serializes with
 * `stringifyJson` as exact JSON numbers, as the spec types them (Long and BigDecimal).
 */
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { LosslessNumber, isLosslessNumber } from '../json';
import { DECIMAL_RE, DECIMAL_TEXT_MAX, textCharacterIssue } from '../rules';

const LONG_RE = /^-?(0|[1-9]\d{0,18})$/;
const EXPONENT_RE = /^-?\d+(\.\d+)?[eE][+-]?\d+$/;

/** Normalizes exponent notation (1.5E+3) to plain digits without changing the value. */
function plainDigits(text: string): string {
  return EXPONENT_RE.test(text) ? new Decimal(text).toFixed() : text;
}

const wireNumberOrString = z.union([z.string(), z.instanceof(LosslessNumber)]);

/** BigDecimal in a response: JSON number or string on the wire, decimal string inside. */
export const decimal = wireNumberOrString
  .transform((v) => plainDigits(String(v).trim()))
  .refine((s) => DECIMAL_RE.test(s), { message: 'must be a decimal number such as "10.50"' });

/**
 * Long id in a response: JSON number or string on the wire (19 digits survive), digit string
 * inside.
 */
export const longId = z
  .union([z.string(), z.instanceof(LosslessNumber), z.bigint()])
  .transform((v) => String(v).trim())
  .refine((s) => LONG_RE.test(s), { message: 'must be an integer id of at most 19 digits' });

/** Integer or Long timestamp: must be a safe integer, becomes a JS number. */
export const int = z
  .union([z.number(), z.instanceof(LosslessNumber), z.string().regex(/^-?\d+$/)])
  .transform((v) => Number(String(v)))
  .refine((n) => Number.isSafeInteger(n), { message: 'must be a whole number within the safe integer range' });

/** Boolean that also tolerates the strings "true" / "false" some integrations send. */
export const bool = z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]);

// ---------------------------------------------------------------------------
// Request side: program values in, wire-ready LosslessNumbers out.

/** Error for a wrongly typed request value: "is required" when missing, else the rule. */
export function typeError(rule: string) {
  return (issue: { input?: unknown }): string => (issue.input === undefined ? 'is required' : rule);
}

const DECIMAL_STRING_RULE = 'must be a decimal string such as "10.50" (JS numbers lose precision)';

/**
 * BigDecimal in a request. Accepts a decimal string (or a LosslessNumber parsed from the
 * wire); refuses a JS number, which may already have lost digits.
 */
export const reqDecimal = z
  .union([z.string({ error: DECIMAL_STRING_RULE }), z.instanceof(LosslessNumber)], {
    error: typeError(DECIMAL_STRING_RULE),
  })
  .transform((v) => String(v).trim())
  .refine((s) => s.length <= DECIMAL_TEXT_MAX, {
    message: `must be at most ${DECIMAL_TEXT_MAX} characters`,
    abort: true,
  })
  .transform(plainDigits)
  .refine((s) => DECIMAL_RE.test(s), { message: 'must be a decimal string such as "10.50"' })
  .transform((s) => new LosslessNumber(s));

/**
 * Long id in a request: digit string, bigint, safe-integer number or LosslessNumber; sent as a JSON
 * number.
 */
export const reqLong = z
  .union(
    [
      z.string(),
      z.bigint(),
      z.instanceof(LosslessNumber),
      z.number().refine((n) => Number.isSafeInteger(n), { message: 'ids above 2^53 must be passed as strings' }),
    ],
    { error: typeError('must be an integer id (a digit string)') },
  )
  .transform((v) => String(v).trim())
  .refine((s) => LONG_RE.test(s), { message: 'must be an integer id of at most 19 digits' })
  .transform((s) => new LosslessNumber(s));

/** Integer / timestamp in a request: a safe integer, sent as a JSON number. */
export const reqInt = z
  .union([z.number(), z.instanceof(LosslessNumber)], { error: typeError('must be a whole number') })
  .transform((v) => Number(String(v)))
  .refine((n) => Number.isSafeInteger(n), { message: 'must be a whole number' });

/**
 * A text field: length within [min, max] and the character policy ({@link textChecked}), with
 * messages naming the rule, never the value. `multiline` allows tab and line breaks.
 */
export function lengthBetween(min: number, max: number, options: { multiline?: boolean } = {}) {
  const lengthRule = `length must be ${min} to ${max} characters`;
  return textChecked(
    z
      .string({ error: typeError('must be a string') })
      .min(min, { message: lengthRule })
      .max(max, { message: lengthRule }),
    max,
    lengthRule,
    options.multiline ?? false,
  );
}

/**
 * Adds to a string schema bounded by `max` the character policy (provider/rules.ts,
 * textCharacterIssue: no control, format or bidi-override characters; NFC) and the length in
 * UTF-16 units: zod counts code points, the provider counts a Java String's length, as does
 * Temporal's payload limit.
 */
export function textChecked(schema: z.ZodString, max: number, lengthRule: string, multiline = false): z.ZodString {
  return schema.check((ctx) => {
    const text = ctx.value;
    // Past twice the limit zod has refused it already: a 3 MB value is never scanned.
    if (text.length > 2 * max) return;
    if (text.length > max) {
      if ([...text].length <= max) ctx.issues.push({ code: 'custom', message: lengthRule, input: undefined });
      return;
    }
    const rule = textCharacterIssue(text, multiline);
    if (rule) ctx.issues.push({ code: 'custom', message: rule, input: undefined });
  });
}

/** Value read back from a request primitive (LosslessNumber) as its exact text. */
export function digits(value: LosslessNumber | string | number | bigint): string {
  return isLosslessNumber(value) ? value.value : String(value);
}

/**
 * Reading the parsed request the shell hands over: the operation's request schema has already
 * run, so Long and BigDecimal fields are LosslessNumbers and optional fields may be absent.
 * These readers also accept plain strings and numbers, so tests and helpers can call the
 * engine directly; a missing required field is refused naming the field (40002).
 */
import { isLosslessNumber } from '../../../provider/json';
import { digits } from '../../../provider/schemas/primitives';
import { paramError } from './context';
import { DECIMAL_RE } from '../../../provider/rules';

export type Req = Record<string, unknown>;

const LONG_RE = /^-?\d{1,19}$/;

function raw(req: Req, field: string): unknown {
  const v = req[field];
  return v === null ? undefined : v;
}

/** Optional text (a LosslessNumber/number is read as its digits). */
export function optText(req: Req, field: string): string | undefined {
  const v = raw(req, field);
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (isLosslessNumber(v) || typeof v === 'number' || typeof v === 'bigint') return digits(v);
  throw paramError(field, 'must be a string');
}

/** The required form of an optional reader: absent (or empty text) is refused naming the field. */
function required<T>(read: (req: Req, field: string) => T | undefined): (req: Req, field: string) => T {
  return (req, field) => {
    const v = read(req, field);
    if (v === undefined || v === '') throw paramError(field, 'is required');
    return v;
  };
}

export const text = required(optText);

/** Optional Long id as a digit string. */
export function optLong(req: Req, field: string): string | undefined {
  const v = optText(req, field);
  if (v === undefined) return undefined;
  if (!LONG_RE.test(v)) throw paramError(field, 'must be an integer id');
  return v.replace(/^(-?)0+(?=\d)/, '$1');
}

export const long = required(optLong);

/** Optional BigDecimal as a decimal string. */
export function optAmount(req: Req, field: string): string | undefined {
  const v = optText(req, field);
  if (v === undefined) return undefined;
  if (!DECIMAL_RE.test(v.trim())) throw paramError(field, 'must be a decimal number such as "10.50"');
  return v.trim();
}

export const amount = required(optAmount);

export function optInt(req: Req, field: string): number | undefined {
  const v = optText(req, field);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw paramError(field, 'must be a whole number');
  return n;
}

export function optBool(req: Req, field: string): boolean | undefined {
  const v = raw(req, field);
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw paramError(field, 'must be true or false');
}

export function optList(req: Req, field: string): string[] | undefined {
  const v = raw(req, field);
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw paramError(field, 'must be a list of strings');
  return v;
}

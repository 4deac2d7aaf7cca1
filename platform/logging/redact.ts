/**
 * The ONE redaction list of cardflow, and the function that applies it.
 *
 * Every log line (ours and the Temporal SDK's, through `platform/logging/logger.ts`) passes through
 * {@link redact}. A field whose name is on the list keeps its place but loses its value, at any
 * depth, in objects, arrays, headers and error objects. Names are compared without case and
 * without `-`/`_`, so `X-WSB-SIGNATURE`, `x_wsb_signature` and `xWsbSignature` all match.
 *
 * Add a field here, never in a caller: one list means one review.
 */
import Decimal from 'decimal.js';
import { isLosslessNumber } from 'lossless-json';

/** Replaces a redacted value. Says that a value was there without saying anything about it. */
export const REDACTED = '[REDACTED]';

/**
 * Field names whose values never reach a log, grouped by why.
 * Spec sections: card-issuing-api.md "Card sensitive data", "Card 3DS / activation-code record",
 * "Cardholders"; provider-notes.md "Requests" (headers, keys) and "Sensitive data".
 */
export const REDACTED_FIELDS: readonly string[] = [
  // Card data (card-issuing-api.md "Card sensitive data", "activeCard", "updatePin"). `cardNo` is
  // the provider's card id, not the card number, and stays visible.
  'cardNumber',
  'cvv',
  'cvv2',
  'cvc',
  'expireDate',
  'validPeriod',
  'pin',
  'newPin',
  'oldPin',
  'activeCode',
  'activateUrl',
  'values',
  // Personal data of a cardholder (card-issuing-api.md "Cardholders", "Card" holderInfo).
  'firstName',
  'lastName',
  'fullName',
  'email',
  'mobile',
  'phone',
  'birthday',
  'gender',
  'idNumber',
  'issueDate',
  'idNoExpiryDate',
  'address',
  'addressLine2',
  'postCode',
  'ipAddress',
  'annualSalary',
  // Credentials and signatures (provider-notes.md "Requests"; codec keys; HTTP auth).
  'privateKey',
  'apiKey',
  'signature',
  'X-WSB-SIGNATURE',
  'X-WSB-API-KEY',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'password',
  'secret',
  'token',
  'accessToken',
  'refreshToken',
  'encryptionKey',
  'codecKeys',
];

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const redactedNames: ReadonlySet<string> = new Set(REDACTED_FIELDS.map(normalize));

/** True when a field of this name is redacted. */
export function isRedactedField(name: string): boolean {
  return redactedNames.has(normalize(name));
}

/** Deeper structures are cut, so a pathological object cannot stall the logger. */
const MAX_DEPTH = 12;

/**
 * A copy of `value` safe to log: redacted fields replaced by {@link REDACTED}, cycles cut, binary
 * data summarised, bigint and LosslessNumber written as strings, errors as plain objects.
 * Never mutates its input.
 */
export function redact(value: unknown): unknown {
  return redactValue(value, 0, new WeakSet());
}

function redactValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
    default:
      break;
  }
  const object = value;
  if (seen.has(object)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
  if (ArrayBuffer.isView(object)) return `[binary ${object.byteLength} bytes]`;
  if (object instanceof ArrayBuffer) return `[binary ${object.byteLength} bytes]`;
  // LosslessNumber (provider/json.ts) and decimal.js values: their text is the value.
  if (isLosslessNumber(object)) return object.toString();
  if (Decimal.isDecimal(object)) return object.toString();
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => redactValue(item, depth + 1, seen));
    if (object instanceof Map)
      return redactEntries(
        [...object.entries()].map(([k, v]) => [String(k), v]),
        depth,
        seen,
      );
    if (object instanceof Set) return [...object].map((item) => redactValue(item, depth + 1, seen));
    if (object instanceof Error) return redactError(object, depth, seen);
    if (object instanceof URL) return redactUrl(object);
    return redactEntries(Object.entries(object), depth, seen);
  } finally {
    seen.delete(object);
  }
}

function redactEntries(entries: [string, unknown][], depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    out[key] = isRedactedField(key) ? REDACTED : redactValue(item, depth + 1, seen);
  }
  return out;
}

function redactError(error: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  // Own enumerable fields first (ApplicationFailure.details, provider codes, a `cause`), then the
  // standard ones, which are not enumerable.
  const out = redactEntries(Object.entries(error), depth, seen);
  out.name = error.name;
  out.message = scrubText(error.message);
  if (error.stack !== undefined) out.stack = scrubText(error.stack);
  if (error.cause !== undefined) out.cause = redactValue(error.cause, depth + 1, seen);
  return out;
}

/** Query parameters can carry an API key or an activation URL's code. */
function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  for (const key of [...copy.searchParams.keys()]) if (isRedactedField(key)) copy.searchParams.set(key, REDACTED);
  if (copy.password !== '') copy.password = REDACTED;
  return copy.href;
}

/**
 * A run of 15 or 16 digits, possibly grouped by single spaces or dashes: the card numbers of the
 * networks the provider issues on (Visa, MasterCard, Discover: 16; card-issuing-api.md "Card
 * type"). Longer runs are the provider's 19-digit Long ids and are left alone.
 */
const digitRun = /\b\d(?:[ -]?\d){14,15}\b/g;
const emailAddress = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/**
 * Masks card numbers (Luhn-valid runs of 15 or 16 digits) and e-mail addresses in free text: log
 * messages and error messages, where a field name cannot protect the value (a provider error can
 * quote the e-mail it found duplicated, card-issuing-api.md "Cardholders"). Ids that fail the Luhn
 * check stay readable.
 */
export function scrubText(text: string): string {
  return text
    .replace(digitRun, (run) => (luhnValid(run.replace(/[ -]/g, '')) ? REDACTED : run))
    .replace(emailAddress, REDACTED);
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

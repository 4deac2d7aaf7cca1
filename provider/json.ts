/**
 * Lossless JSON for the provider's wire format.
 *
 * The provider sends 19-digit Long ids (e.g. 1989887271659823105 > 2^53) and BigDecimal
 * amounts as bare JSON numbers; `JSON.parse` would corrupt both (provider-notes, Responses).
 * Every number is parsed into a {@link LosslessNumber} that keeps its exact text; the zod
 * primitives in `schemas/primitives.ts` turn those into decimal strings, id strings or
 * safe integers. Never call `JSON.parse` on a provider body.
 */
import { LosslessNumber, isLosslessNumber, parse, stringify } from 'lossless-json';

export { LosslessNumber, isLosslessNumber };

/** Parses JSON text; every number becomes a LosslessNumber holding its exact digits. */
export function parseJson(text: string): unknown {
  return parse(text);
}

/** Serializes a value; LosslessNumber and bigint values are written as bare JSON numbers. */
export function stringifyJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value cannot be serialized to JSON');
  return text;
}

/** A JSON number with exactly these digits, for fields the wire carries as numbers. */
export function jsonNumber(digits: string | number | bigint): LosslessNumber {
  return new LosslessNumber(String(digits));
}

/**
 * Parsed JSON with every lossless number turned into its digit string (exact, and plain for JSON
 * payloads).
 */
export function plainJson(value: unknown): unknown {
  if (isLosslessNumber(value)) return value.toString();
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, plainJson(v)]));
  }
  return value;
}

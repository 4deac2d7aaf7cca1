import type { z } from 'zod';
import { parseJson } from '../../../../provider/json';

/**
 * Parses provider JSON text losslessly, then with the schema; throws with the issues on failure.
 */
export function parseWire<S extends z.ZodType>(schema: S, text: string): z.output<S> {
  return schema.parse(parseJson(text));
}

/** Issues of a failed parse as "path: message" lines (empty when the input is valid). */
export function issues(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

/**
 * One test a row: the valid request with `field` set to `value` is refused, `message` among its
 * issues.
 */
export function itRefusesEach(
  title: string,
  schema: z.ZodType,
  valid: Record<string, unknown>,
  rows: Array<[field: string, value: unknown, message: string]>,
): void {
  it.each(rows)(`${title} %s = %j`, (field, value, message) => {
    expect(issues(schema, { ...valid, [field]: value })).toContain(message);
  });
}

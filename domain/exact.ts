/**
 * Parsed values fitted to cardflow's types. zod reads an optional field as `field?: T | undefined`,
 * while cardflow's types (with `exactOptionalPropertyTypes`) say an optional field is absent, never
 * present and undefined. {@link exact} drops the undefined keys, so a parsed request is exactly the
 * workflow input it becomes; nothing changes on the wire, where JSON drops undefined keys anyway.
 */

/**
 * `T` with every optional property that may hold `undefined` made absent-or-defined, all the way
 * down.
 */
export type Exact<T> = T extends readonly (infer U)[]
  ? Exact<U>[]
  : T extends object
    ? { [K in keyof T as undefined extends T[K] ? never : K]: Exact<T[K]> } & {
        [K in keyof T as undefined extends T[K] ? K : never]?: Exact<Exclude<T[K], undefined>>;
      }
    : T;

/** A copy of `value` without the keys whose value is undefined, in plain objects at any depth. */
export function exact<T>(value: T): Exact<T> {
  return strip(value) as Exact<T>;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = strip(item);
  return out;
}

/**
 * Fields a backend sent that the request's schema does not name. zod drops them without a word,
 * so a misspelt optional field (`initialDepost`) would start an onboarding without its deposit;
 * the client refuses them instead, naming each path. Objects that are strict already refuse
 * their own (the parse reports those), and open ones (`looseObject`) take anything.
 */
import type { z } from 'zod';

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/** The dotted paths, in `value`, of the keys `schema` does not declare, at any depth. */
export function unknownFields(schema: z.ZodType, value: unknown, path: readonly string[] = []): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return value === undefined || value === null || !def.innerType ? [] : unknownFields(def.innerType, value, path);
    case 'pipe':
      return def.in ? unknownFields(def.in, value, path) : [];
    case 'lazy':
      return def.getter ? unknownFields(def.getter(), value, path) : [];
    case 'array':
      return Array.isArray(value) && def.element
        ? value.flatMap((item, i) => unknownFields(def.element as z.ZodType, item, [...path, String(i)]))
        : [];
    case 'union': {
      // The option the value is for; when none parses, the parse's own issues say why.
      const option = def.options?.find((candidate) => candidate.safeParse(value).success);
      return option ? unknownFields(option, value, path) : [];
    }
    case 'object':
      return objectUnknowns(def, value, path);
    default:
      return [];
  }
}

function objectUnknowns(def: Def, value: unknown, path: readonly string[]): string[] {
  if (!isPlainRecord(value) || !def.shape) return [];
  // A catchall of `never` is a strict object, whose parse names the key; any other takes it.
  const reportsItself = def.catchall !== undefined;
  const found: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const field = def.shape[key];
    if (field) found.push(...unknownFields(field, item, [...path, key]));
    else if (!reportsItself && item !== undefined) found.push([...path, key].join('.'));
  }
  return found;
}

/** `path: rule` lines for the unknown fields of `value`, as the client's refusals word them. */
export function unknownFieldLines(schema: z.ZodType, value: unknown, what: string, prefix = ''): string[] {
  return unknownFields(schema, value, prefix ? [prefix] : []).map((path) => `${path}: is not a field of ${what}`);
}

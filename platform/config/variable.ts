/**
 * How one environment variable of cardflow is declared (platform/config/schema.ts holds them all):
 * its meaning and default for README's configuration table, and a zod schema for its text. A
 * variable with a secret file form is read from `NAME` or `NAME_FILE` (the file's text), never
 * both.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export type Env = Record<string, string | undefined>;

export interface Variable<T = unknown> {
  /** What it means, for README's table (Markdown). */
  description: string;
  /**
   * The variable's text when it is unset, read by `schema` as a set one is: the one place a default
   * is written ({@link configured} in platform/config/schema.ts hands it to readers; README's table
   * shows it).
   */
  default?: string;
  /**
   * What unset means where no one text says it ("unset: no listener"), or a remark after the
   * default; for README's table (Markdown).
   */
  unset?: string;
  /**
   * Who reads it, for README's table: `worker`, `receiver`, `codec server`, `CLI`, `npm start`, ...
   */
  readBy: string;
  /**
   * Also settable as `NAME_FILE`, the path of a file holding the value (a mounted secret); its
   * parsed value then comes with the name it was read from ({@link Sourced}).
   */
  fileForm?: boolean;
  /**
   * Read as set, untrimmed (only the empty string is unset), where a value that is almost right
   * must be refused, naming it, rather than read as the right one (`CARDFLOW_ENV`).
   */
  exact?: boolean;
  /** The value's rule: parses the trimmed (or, {@link exact}, the untouched), non-empty text. */
  schema: z.ZodType<T, string>;
}

export function variable<T, const F extends boolean = false, const D extends string | undefined = undefined>(
  declaration: Variable<T> & { fileForm?: F; default?: D },
): Variable<T> & { fileForm?: F; default: D } {
  return declaration as Variable<T> & { fileForm?: F; default: D };
}

/** The default as README's table shows it (Markdown): the text in code, then the remark. */
export function defaultText(declaration: Variable): string {
  if (declaration.default === undefined) return declaration.unset ?? '';
  const text = `\`${declaration.default}\``;
  return declaration.unset === undefined ? text : `${text} ${declaration.unset}`;
}

/**
 * The value of a variable with a file form and the name it came from (`NAME` or `NAME_FILE`), so a
 * reader that finds more wrong with it (a key that does not parse) names what the operator set.
 */
export interface Sourced<T = string> {
  value: T;
  from: string;
}

/** `NAME` or `NAME_FILE` set both: which one wins would be a guess. */
export class SecretSourceError extends Error {
  override readonly name = 'SecretSourceError';
}

/**
 * The text of a variable with a file form: `NAME`, else the contents of the file `NAME_FILE`
 * names (trimmed), else undefined. Setting both, or naming a file that cannot be read, throws a
 * {@link SecretSourceError} naming the variable, never its value. The one place this rule is
 * written; the key loaders read their variables through it.
 */
export function secretText(env: Env, name: string): { text: string; from: string } | undefined {
  const inline = env[name]?.trim() || undefined;
  const file = secretFile(env, name);
  if (inline !== undefined && file !== undefined) throw new SecretSourceError(`${name} and ${name}_FILE: set only one`);
  if (inline !== undefined) return { text: inline, from: name };
  if (file === undefined) return undefined;
  try {
    return { text: readFileSync(file, 'utf8').trim(), from: `${name}_FILE` };
  } catch (error) {
    throw new SecretSourceError(
      `${name}_FILE=${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/** The path `NAME_FILE` names, trimmed; undefined when unset or blank. */
export function secretFile(env: Env, name: string): string | undefined {
  return env[`${name}_FILE`]?.trim() || undefined;
}

/** Rules shared by several variables. */
export const rules = {
  text: () => z.string(),
  wholeNumber: (min: number, max = 9_999_999, unit = '') =>
    z
      .string()
      .regex(/^\d{1,9}$/, { message: `must be a whole number${unit} from ${min} to ${max}` })
      .transform(Number)
      .refine((n) => n >= min && n <= max, { message: `must be a whole number${unit} from ${min} to ${max}` }),
  port: (min = 1) =>
    z
      .string()
      .regex(/^\d{1,5}$/, { message: `must be a TCP port from ${min} to 65535` })
      .transform(Number)
      .refine((n) => n >= min && n <= 65535, { message: `must be a TCP port from ${min} to 65535` }),
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values, { error: `must be one of ${values.join(', ')}` }),
  flag: () =>
    z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1'),
  url: () =>
    z.string().refine((v) => /^https?:\/\/[^/]/.test(v) && URL.canParse(v), { message: 'must be an http(s) URL' }),
  hostPort: () =>
    z.string().regex(/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, {
      message: 'must be host:port with a port from 1 to 65535 (e.g. 0.0.0.0:9464)',
    }),
  duration: () => z.string().regex(/^\d+(ms|s|m|h|d)?$/, { message: 'must be a duration such as 90s, 15m, 1h or 2d' }),
  decimal: () => z.string().regex(/^\d{1,15}(\.\d{1,8})?$/, { message: 'must be a decimal amount such as "1000.00"' }),
};

/**
 * Shared pieces of the lifecycle clients' input checks (docs/architecture.md, Validation errors):
 * the conversion of zod issues and the domain's `FieldIssue`s into one {@link InvalidInputError}
 * naming each field and rule, never a value (a PIN or personal data could be one). The request
 * schemas themselves live with their workflows' definitions (domain/workflows.ts `request`).
 */
import { type Exact, exact } from '../domain/exact';
import { type z } from 'zod';
import type { FieldIssue } from '../domain';
import { InvalidInputError, issueLines } from './validation';
import { unknownFieldLines } from './unknown-fields';

/** Parses `input` with `schema`; throws {@link InvalidInputError} naming every field and rule. */
export function parseInput<S extends z.ZodType>(schema: S, what: string, input: unknown): Exact<z.output<S>> {
  const parsed = schema.safeParse(input);
  const problems = [...(parsed.success ? [] : issueLines(parsed.error)), ...unknownFieldLines(schema, input, what)];
  if (problems.length || !parsed.success) throw new InvalidInputError(what, problems);
  return exact(parsed.data);
}

/**
 * Parses one named value (a command-line argument, an id) with `schema`; issues are named `field:
 * rule`.
 */
export function parseField<S extends z.ZodType>(schema: S, field: string, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InvalidInputError(field, issueLines(parsed.error, field));
  return parsed.data;
}

/** Throws {@link InvalidInputError} when the domain's own checks found issues. */
export function refuseIssues(what: string, issues: readonly FieldIssue[]): void {
  if (issues.length)
    throw new InvalidInputError(
      what,
      issues.map((i) => `${i.path}: ${i.message}`),
    );
}

/** Throws {@link InvalidInputError} for one field and rule. */
export function refuse(what: string, path: string, rule: string): never {
  throw new InvalidInputError(what, [`${path}: ${rule}`]);
}

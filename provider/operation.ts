/**
 * The shape of one provider operation: its path, its request schema and how its
 * `data` is shaped. `operations.ts` lists all 46; the client, the sandbox and the tests
 * all read that list, so a path, a rule or a field type is written exactly once.
 */
import type { z } from 'zod';

/**
 * How `data` carries the result (spec, "Response envelope"):
 * - `object`: data is one record.
 * - `one`: one record that some operations wrap in a List of one (create shared account,
 *   single account query); either form is accepted and the record is returned.
 * - `list`: data is a List of records.
 * - `page`: data is `{ total, records }`.
 * - `boolean`: data is `true` (fund transfer).
 * - `bareOrEnvelope`: like `object`, but the record may also arrive without the envelope
 *   (the work-order submit example).
 */
export type DataShape = 'object' | 'one' | 'list' | 'page' | 'boolean' | 'bareOrEnvelope';

export interface OperationDef<
  Name extends string = string,
  Req extends z.ZodType = z.ZodType,
  Rec extends z.ZodType = z.ZodType,
  Shape extends DataShape = DataShape,
> {
  /** Client method name, e.g. `createCard`. */
  readonly name: Name;
  /** Path below the base URL, e.g. `/merchant/core/mcb/card/v2/createCard`. */
  readonly path: string;
  /** Validates and wire-encodes the request; `z.object({})` for operations without parameters. */
  readonly request: Req;
  /** Schema of one record of the result (for `boolean`, `z.literal(true)`-like). */
  readonly record: Rec;
  readonly shape: Shape;
  /** Marked deprecated by the spec (still callable). */
  readonly deprecated?: boolean;
  /** Multipart body (file upload): the signature covers the literal `{}`. */
  readonly multipart?: boolean;
  /**
   * Changes state at the provider; such operations carry a merchantOrderNo where the spec has one.
   */
  readonly mutating: boolean;
  /**
   * Paged queries: the name of the page-number field (`pageNum`, or `pageNo` where integrations
   * report it).
   */
  readonly pageField?: 'pageNum' | 'pageNo';
  /** One-line summary from the spec, shown in TSDoc and errors. */
  readonly summary: string;
}

export function defineOperation<
  const Name extends string,
  Req extends z.ZodType,
  Rec extends z.ZodType,
  const Shape extends DataShape,
>(def: OperationDef<Name, Req, Rec, Shape>): OperationDef<Name, Req, Rec, Shape> {
  return def;
}

export interface Page<T> {
  total: string;
  records: T[];
}

/** What a call to an operation resolves to, from its record schema and data shape. */
export type ResultOf<Op extends OperationDef> =
  Op extends OperationDef<string, z.ZodType, infer Rec, infer Shape>
    ? Shape extends 'list'
      ? z.output<Rec>[]
      : Shape extends 'page'
        ? Page<z.output<Rec>>
        : z.output<Rec>
    : never;

/** The parameters a caller passes: the request schema's input type. */
export type ParamsOf<Op extends OperationDef> = z.input<Op['request']>;

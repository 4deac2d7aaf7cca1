/**
 * The one place that reads provider responses: envelope `{success, code, msg, data}` (spec,
 * "Response envelope"), its quirks per DataShape (provider/operation.ts), the response-signature
 * outcome, and the mapping of everything else to typed errors.
 *
 * Order of decisions:
 * 1. HTTP 5xx, with or without an envelope → ProviderServerError (retryable).
 * 2. A present signature that does not verify → ProviderSignatureError('mismatch').
 * 3. Not JSON, or no envelope (and the op is not `bareOrEnvelope`) → ProviderResponseError.
 * 4. Failure envelope → ProviderBusinessError; an unsigned one is still reported as such,
 *    with `signatureMissing: true` (provider-notes, Responses: integrations disagree).
 * 5. Success without a signature → ProviderSignatureError('missing').
 * 6. `data` parsed with the op's record schema per shape; a mismatch → ProviderResponseError
 *    (not retryable: the same answer would come back; fix the schema, reconcile the call).
 */
import type { z } from 'zod';
import {
  ProviderBusinessError,
  ProviderResponseError,
  ProviderServerError,
  ProviderSignatureError,
  type Issue,
  type ProviderErrorContext,
} from './errors';
import type { RawResponse } from './http';
import { isLosslessNumber, parseJson } from './json';
import type { OperationDef, Page, ResultOf } from './operation';

export interface Envelope {
  success: boolean;
  code: number;
  msg: string | null;
  data: unknown;
}

function toInt(value: unknown): number | undefined {
  const text =
    isLosslessNumber(value) || typeof value === 'number' || typeof value === 'string' ? String(value) : undefined;
  return text !== undefined && /^-?\d+$/.test(text.trim()) ? Number(text) : undefined;
}

/** Reads an envelope from a parsed body, or undefined when the body is not one. */
export function asEnvelope(value: unknown): Envelope | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const code = toInt(record.code);
  if (code === undefined || !('success' in record || 'msg' in record || 'data' in record)) return undefined;
  const success =
    record.success === true || record.success === 'true' || (record.success === undefined && code === 200);
  return {
    success: success && code === 200,
    code,
    msg: typeof record.msg === 'string' ? record.msg : null,
    data: record.data ?? null,
  };
}

/** zod issues as `{path, message}`: field names and rules, never the values. */
export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

function parseRecord(op: OperationDef, value: unknown, context: ProviderErrorContext, where: string): unknown {
  const result = op.record.safeParse(value);
  if (!result.success) {
    const issues = issuesOf(result.error).map((i) => ({ ...i, path: [where, i.path].filter(Boolean).join('.') }));
    throw new ProviderResponseError('response data does not match the spec', issues, context);
  }
  return result.data;
}

function shapeError(message: string, context: ProviderErrorContext): ProviderResponseError {
  return new ProviderResponseError(message, [], context);
}

/** Turns an envelope's `data` into the operation's result, per its DataShape. */
export function extractData<Op extends OperationDef>(
  op: Op,
  data: unknown,
  context: ProviderErrorContext = {},
): ResultOf<Op> {
  switch (op.shape) {
    case 'object':
    case 'bareOrEnvelope':
    case 'boolean':
      return parseRecord(op, data, context, 'data') as ResultOf<Op>;
    case 'one': {
      // Some operations wrap their single record in a List of one (spec, "Response envelope").
      if (!Array.isArray(data)) return parseRecord(op, data, context, 'data') as ResultOf<Op>;
      if (data.length !== 1) throw shapeError(`expected one record, got a list of ${data.length}`, context);
      return parseRecord(op, data[0], context, 'data.0') as ResultOf<Op>;
    }
    case 'list': {
      // A null list is read as empty.
      if (data === null) return [] as ResultOf<Op>;
      if (!Array.isArray(data)) throw shapeError('expected data to be a list', context);
      return data.map((item, i) => parseRecord(op, item, context, `data.${i}`)) as ResultOf<Op>;
    }
    case 'page': {
      if (data === null || typeof data !== 'object' || Array.isArray(data))
        throw shapeError('expected data to be a page {total, records}', context);
      const { total, records } = data as Record<string, unknown>;
      const totalText =
        isLosslessNumber(total) || typeof total === 'number' || typeof total === 'string' ? String(total).trim() : '';
      if (!/^\d+$/.test(totalText))
        throw new ProviderResponseError(
          'response data does not match the spec',
          [{ path: 'data.total', message: 'must be a whole number' }],
          context,
        );
      if (records !== null && records !== undefined && !Array.isArray(records))
        throw shapeError('expected data.records to be a list', context);
      const page: Page<unknown> = {
        total: totalText,
        records: (records ?? []).map((item: unknown, i: number) => parseRecord(op, item, context, `data.records.${i}`)),
      };
      return page as ResultOf<Op>;
    }
    default:
      throw shapeError(`unknown data shape ${String(op.shape)}`, context);
  }
}

/** Interprets one raw response for an operation: the result, or a typed ProviderError. */
export function interpretResponse<Op extends OperationDef>(
  op: Op,
  raw: RawResponse,
  context: ProviderErrorContext = {},
): ResultOf<Op> {
  const ctx: ProviderErrorContext = { ...context, httpStatus: raw.status, requestId: raw.requestId };
  let body: unknown;
  let parsed = false;
  try {
    body = parseJson(raw.body.toString('utf8'));
    parsed = true;
  } catch {
    // handled below, after the status check
  }
  const envelope = parsed ? asEnvelope(body) : undefined;
  if (parsed) ctx.envelope = body;

  if (raw.status >= 500) {
    throw new ProviderServerError({
      ...ctx,
      httpStatus: raw.status,
      code: envelope?.code,
      msg: envelope?.msg ?? undefined,
    });
  }
  if (raw.signature === 'invalid') throw new ProviderSignatureError('mismatch', ctx);
  if (!parsed) throw new ProviderResponseError(`HTTP ${raw.status} response is not JSON`, [], ctx);

  if (envelope && !envelope.success) {
    throw new ProviderBusinessError({
      ...ctx,
      code: envelope.code,
      msg: envelope.msg ?? '',
      signatureMissing: raw.signature === 'missing',
    });
  }
  if (raw.status < 200 || raw.status >= 300) throw new ProviderResponseError(`unexpected HTTP ${raw.status}`, [], ctx);
  if (raw.signature === 'missing') throw new ProviderSignatureError('missing', ctx);
  if (envelope) return extractData(op, envelope.data, ctx);
  // The work-order submit example shows the bare record (spec, "Response envelope").
  if (op.shape === 'bareOrEnvelope') return extractData(op, body, ctx);
  throw new ProviderResponseError('response has no envelope {success, code, msg, data}', [], ctx);
}

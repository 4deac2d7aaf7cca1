/**
 * The request pipeline of the sandbox server, in the order the provider's checks imply:
 * route → method → body cap → X-WSB-API-KEY → X-WSB-SIGNATURE → JSON → request schema →
 * faults → engine → envelope. Every failure before the engine answers a signed failure
 * envelope and changes nothing; nothing a
 * client sends can crash the server.
 */
import { type KeyObject, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { issuesOf } from '../../../provider/envelope';
import { isLosslessNumber, parseJson } from '../../../provider/json';
import type { OperationDef } from '../../../provider/operation';
import { API_KEY_HEADER, EMPTY_BODY, SIGNATURE_HEADER, headerValue, verifySignature } from '../../../provider/signing';
import { SandboxError, SandboxErrorCode, type SandboxEngine, type UploadedFile } from '../contract';
import { BodyIncompleteError, BodyTooLargeError } from '../../../platform/http/body';
import { JSON_BODY_LIMIT, MULTIPART_BODY_LIMIT, readSandboxBody } from './body';
import { type Envelope, failureEnvelope, sendEnvelope, successEnvelope } from './envelope';
import type { FaultInjector } from './faults';
import { isMultipartFormData, MultipartError, parseMultipart } from './multipart';
import { HELPER_PREFIX, type RouteTable, pathOf } from './routes';

/** A sandbox endpoint below /sandbox/: gets the parsed JSON body, returns the envelope's data. */
export type HelperFn = (body: Record<string, unknown>) => unknown;

export interface HandlerDeps {
  routes: RouteTable;
  engine: SandboxEngine;
  apiKey: string;
  merchantPublicKey: KeyObject;
  platformPrivateKey: KeyObject;
  faults: FaultInjector;
  /**
   * Shell endpoints (faults, `/sandbox/webhooks/config`, ...); they take precedence over engine
   * helpers of the same name.
   */
  shellHelpers: Readonly<Record<string, HelperFn>>;
  /** Diagnostics for unexpected errors (never request bodies). */
  log?: (line: string) => void;
  /** Told of every mutation the engine accepted, and whether its answer was then dropped. */
  onCommit?: (operation: string, request: Record<string, unknown>, result: unknown, dropped: boolean) => void;
}

/** A failure decided before the engine ran: nothing has changed. */
class Reject extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * zod issues as one message naming each field and its rule ("merchantOrderNo: length must be 20 to
 * 40 characters").
 */
export function describeZodError(error: z.ZodError): string {
  return issuesOf(error)
    .map((i) => {
      const message = /received undefined/.test(i.message) ? 'is required' : i.message;
      return i.path ? `${i.path}: ${message}` : message;
    })
    .join('; ');
}

/**
 * Helper bodies are written by hand (`{"ms": 1000}`): whole numbers within 2^53 become JS
 * numbers; every other number (19-digit ids, amounts such as 10.50) stays a LosslessNumber.
 */
export function helperBody(value: unknown): unknown {
  if (isLosslessNumber(value)) {
    const text = String(value);
    return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : value;
  }
  if (Array.isArray(value)) return value.map(helperBody);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, helperBody(v)]));
  return value;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Injected latency; unref'd so a pending delay never holds a stopping process open. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function send(deps: HandlerDeps, res: ServerResponse, envelope: Envelope, status = 200): void {
  if (!res.headersSent && !res.destroyed) sendEnvelope(res, envelope, deps.platformPrivateKey, status);
}

function requireApiKey(deps: HandlerDeps, req: IncomingMessage): void {
  const key = headerValue(req.headers, API_KEY_HEADER)?.trim();
  if (!key) throw new Reject(SandboxErrorCode.unauthorized, 'X-WSB-API-KEY header is missing');
  if (!sameSecret(key, deps.apiKey))
    throw new Reject(SandboxErrorCode.unauthorized, 'X-WSB-API-KEY is not a known API key');
}

function requireSignature(deps: HandlerDeps, req: IncomingMessage, signedBytes: Uint8Array): void {
  const signature = headerValue(req.headers, SIGNATURE_HEADER)?.trim();
  if (!signature) throw new Reject(SandboxErrorCode.badSignature, 'X-WSB-SIGNATURE header is missing');
  if (!verifySignature(signedBytes, signature, deps.merchantPublicKey)) {
    throw new Reject(
      SandboxErrorCode.badSignature,
      'X-WSB-SIGNATURE does not verify: sign the exact body bytes (the literal {} for the file upload) with SHA256withRSA and the merchant private key, base64',
    );
  }
}

async function body(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await readSandboxBody(req, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new Reject(
        SandboxErrorCode.badRequest,
        `request body too large: ${error.received} bytes, the limit is ${limit}`,
      );
    if (error instanceof BodyIncompleteError)
      throw new Reject(SandboxErrorCode.badRequest, `request body could not be read: ${error.message}`);
    throw error;
  }
}

function jsonObject(bytes: Buffer): Record<string, unknown> {
  const text = bytes.length === 0 ? EMPTY_BODY : bytes.toString('utf8');
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    throw new Reject(SandboxErrorCode.badRequest, `malformed JSON body: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Reject(SandboxErrorCode.badRequest, 'the JSON body must be an object');
  }
  return value as Record<string, unknown>;
}

function validate(op: OperationDef, input: Record<string, unknown>): Record<string, unknown> {
  const parsed = op.request.safeParse(input);
  if (!parsed.success) throw new Reject(SandboxErrorCode.parameter, describeZodError(parsed.error));
  return parsed.data as Record<string, unknown>;
}

/** A provider request's parsed, validated parameters (and the file of the upload). */
interface ReadOperation {
  request: Record<string, unknown>;
  file?: UploadedFile;
}

/** Reads a provider request up to the parsed, validated parameters (and the file of the upload). */
async function readOperation(deps: HandlerDeps, req: IncomingMessage, op: OperationDef): Promise<ReadOperation> {
  if (op.multipart) return readMultipartOperation(deps, req, op);
  const bytes = await body(req, JSON_BODY_LIMIT);
  requireApiKey(deps, req);
  requireSignature(deps, req, bytes.length === 0 ? Buffer.from(EMPTY_BODY) : bytes);
  if (mediaType(req) !== 'application/json')
    throw new Reject(SandboxErrorCode.badRequest, 'Content-Type must be application/json');
  return { request: validate(op, jsonObject(bytes)) };
}

/**
 * The file upload: signed over the literal {}, its fields and first `file` part from the multipart
 * body.
 */
async function readMultipartOperation(
  deps: HandlerDeps,
  req: IncomingMessage,
  op: OperationDef,
): Promise<ReadOperation> {
  const contentType = req.headers['content-type'];
  const bytes = await body(req, MULTIPART_BODY_LIMIT);
  requireApiKey(deps, req);
  requireSignature(deps, req, Buffer.from(EMPTY_BODY));
  if (contentType === undefined || !isMultipartFormData(contentType) || !/;\s*boundary=/i.test(contentType))
    throw new Reject(SandboxErrorCode.badRequest, 'Content-Type must be multipart/form-data with a boundary');
  let parts;
  try {
    parts = await parseMultipart(bytes, contentType);
  } catch (err) {
    if (err instanceof MultipartError)
      throw new Reject(SandboxErrorCode.badRequest, `malformed multipart body: ${err.message}`);
    throw err;
  }
  const fields: Record<string, unknown> = {};
  let file: UploadedFile | undefined;
  for (const part of parts) {
    if (part.filename !== undefined) {
      if (part.name === 'file' && !file) {
        file = {
          filename: part.filename,
          contentType: part.contentType ?? 'application/octet-stream',
          data: new Uint8Array(part.data),
        };
      }
    } else if (!(part.name in fields)) {
      fields[part.name] = part.data.toString('utf8');
    }
  }
  // The request schema sees the file as the client gave it ({filename, contentType, data}).
  const { file: validFile, ...request } = validate(op, file ? { ...fields, file } : fields);
  return { request, file: validFile as UploadedFile };
}

async function handleOperation(
  deps: HandlerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  op: OperationDef,
): Promise<void> {
  const { request, file } = await readOperation(deps, req, op);
  const fault = deps.faults.forRequest(op.name);
  if (fault.latencyMs > 0) await sleep(fault.latencyMs);
  if (fault.kind === 'error') {
    send(
      deps,
      res,
      failureEnvelope(SandboxErrorCode.internal, 'injected internal error (sandbox fault): nothing was changed'),
      500,
    );
    return;
  }
  const data = deps.engine.handle(op.name, request, file);
  if (op.mutating) deps.onCommit?.(op.name, request, data, fault.kind === 'drop');
  if (fault.kind === 'drop') {
    // The change is committed; the caller never hears of it (sandbox fault).
    res.socket?.destroy();
    res.destroy();
    return;
  }
  send(deps, res, successEnvelope(data));
}

async function handleHelper(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
  const bytes = await body(req, JSON_BODY_LIMIT);
  requireApiKey(deps, req);
  const input = helperBody(jsonObject(bytes)) as Record<string, unknown>;
  // Own properties only: `/sandbox/constructor` must not reach Object.prototype.
  const helper = Object.hasOwn(deps.shellHelpers, name)
    ? deps.shellHelpers[name]
    : Object.hasOwn(deps.engine.helpers, name)
      ? deps.engine.helpers[name]
      : undefined;
  if (!helper) {
    const known = [...Object.keys(deps.shellHelpers), ...Object.keys(deps.engine.helpers)].sort();
    throw new Reject(
      SandboxErrorCode.badRequest,
      `no sandbox helper ${HELPER_PREFIX}${name}; known: ${known.join(', ')}`,
    );
  }
  send(deps, res, successEnvelope(await helper(input)));
}

async function dispatch(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = pathOf(req.url);
  const op = deps.routes.operationAt(path);
  const helperName = path.startsWith(HELPER_PREFIX) ? path.slice(HELPER_PREFIX.length) : undefined;
  if (!op && !helperName) throw new Reject(SandboxErrorCode.badRequest, `no operation at path ${path.slice(0, 200)}`);
  if (req.method !== 'POST')
    throw new Reject(SandboxErrorCode.badRequest, `method ${req.method ?? '?'} not allowed: every operation is a POST`);
  if (op) await handleOperation(deps, req, res, op);
  else await handleHelper(deps, req, res, helperName!);
}

/** Answers a request that failed: a signed failure envelope, a 500 only for what nobody decided. */
function answerFailure(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (err instanceof Reject || err instanceof SandboxError) {
    send(deps, res, failureEnvelope(err.code, err.message));
  } else if (err instanceof z.ZodError) {
    send(deps, res, failureEnvelope(SandboxErrorCode.parameter, describeZodError(err)));
  } else {
    deps.log?.(`sandbox: internal error on ${pathOf(req.url).slice(0, 200)}: ${(err as Error)?.stack ?? String(err)}`);
    send(
      deps,
      res,
      failureEnvelope(SandboxErrorCode.internal, `internal sandbox error: ${(err as Error)?.message ?? String(err)}`),
      500,
    );
  }
  // Unread body bytes (e.g. a GET or an unknown path with a body) are drained so the connection
  // stays usable.
  if (!req.complete) req.resume();
}

export function createRequestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    dispatch(deps, req, res).catch((err: unknown) => answerFailure(deps, req, res, err));
  };
}

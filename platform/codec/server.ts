/**
 * The codec server: an operator's Web UI (or `temporal --codec-endpoint`) sees decrypted payloads
 * while Temporal stores only ciphertext. Temporal's codec contract: `POST /encode`, `POST /decode`
 * (also under `/{namespace}/`), `{"payloads":[...]}` in and out, CORS for the UI's origin. Access
 * is a bearer token compared in constant time; the UI cannot send ours, so a request without one
 * may be let in by {@link CodecServerOptions.tokenlessAccess} (`loopback` for the dev stack, `any`
 * behind a VPN or authenticating proxy). A wrong token, or an unlisted origin, is always refused.
 * Body and time limits: platform/http/body.ts.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { z } from 'zod';
import type { HealthRoutes } from '../health/routes';
import { schemaDefault } from '../config/schema';
import { BodyTooLargeError, readBody, serverLimits } from '../http/body';
import type { StructuredLogger } from '../logging/logger';
import type { CodecKeyring } from './keys';
import { AesGcmPayloadCodec, PayloadDecryptionError } from './payload-codec';

/** The dev server's Web UI, under both names a browser may use for it. */
const DEFAULT_UI_ORIGINS = schemaDefault('CARDFLOW_CODEC_SERVER_ORIGINS');
/** Request bodies above this are refused (413). A history page decodes many payloads at once. */
const DEFAULT_MAX_BODY_BYTES = schemaDefault('CARDFLOW_CODEC_SERVER_MAX_BODY_BYTES');
/**
 * The whole request, body included: a history page's 8 MiB at 4 Mbit/s, and no slow client longer.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
/** Shorter tokens are refused at start-up. */
export const MIN_TOKEN_LENGTH = 16;

/** Who may call without an `Authorization` header. */
export type TokenlessAccess = 'never' | 'loopback' | 'any';

export interface CodecServerOptions {
  /** Keys to encode/decode with (or give `codec`). */
  keyring?: CodecKeyring;
  /** A codec to serve instead of one built from `keyring` (tests). */
  codec?: PayloadCodec;
  /** Listen address. Default `CARDFLOW_CODEC_SERVER_HOST`'s. */
  host?: string;
  /** Listen port; 0 picks a free one. Default `CARDFLOW_CODEC_SERVER_PORT`'s. */
  port?: number;
  /**
   * Bearer token; at least {@link MIN_TOKEN_LENGTH} characters. Required when `tokenlessAccess` is
   * `never`.
   */
  token?: string;
  /** Default `never`. See the module comment. */
  tokenlessAccess?: TokenlessAccess;
  /**
   * Browser origins allowed by CORS (exact `scheme://host:port`). Default {@link
   * DEFAULT_UI_ORIGINS}.
   */
  allowedOrigins?: readonly string[];
  /** Default {@link DEFAULT_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Default 5 s (`DEFAULT_HEADERS_TIMEOUT_MS`, platform/http/body.ts). */
  headersTimeoutMs?: number;
  /** Default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  requestTimeoutMs?: number;
  /** Request log (method, path, status, namespace, payload count; never bodies). */
  logger?: StructuredLogger;
  /**
   * `/healthz` and `/readyz` (platform/health/routes.ts): answered before CORS and tokens, never
   * logged.
   */
  health?: HealthRoutes;
  /**
   * Called once per request answered, refused ones included (metrics: platform/codec/metrics.ts).
   */
  onAnswered?: (answered: AnsweredCodecRequest) => void;
}

/** What the codec server answered to one request; never a body or a payload. */
export interface AnsweredCodecRequest {
  /** The route, when the path was one of the codec's. */
  op?: 'encode' | 'decode';
  /** The HTTP status answered: 200 or 204 (preflight) when served, anything else a refusal. */
  status: number;
  /** Payloads encoded or decoded. */
  payloads?: number;
}

export interface CodecServer {
  /** `http://host:port`, the value for `--ui-codec-endpoint` / `TEMPORAL_CODEC_ENDPOINT`. */
  url: string;
  stop(): Promise<void>;
}

/** Standard or URL-safe base64 (proto3 JSON accepts both; Node decodes both). */
const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be base64');
const requestSchema = z.object({
  // proto3 JSON leaves an empty list out: `{}` asks for no payloads (the Temporal CLI sends it
  // for a query without arguments).
  payloads: z
    .array(
      z.object({
        metadata: z.record(z.string(), base64).nullish(),
        data: base64.nullish(),
      }),
    )
    .default([]),
});

type Route = { op: 'encode' | 'decode'; namespace: string | undefined };

/**
 * `/encode`, `/decode`, `/{namespace}/encode`, `/{namespace}/decode`; anything else is not ours.
 */
function matchRoute(pathname: string): Route | undefined {
  const match = /^(?:\/([^/]+))?\/(encode|decode)\/?$/.exec(pathname);
  if (!match) return undefined;
  return { op: match[2] as Route['op'], namespace: match[1] === undefined ? undefined : decodeURIComponent(match[1]) };
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What every request of one codec server checks against: its options resolved once. */
interface CodecService {
  codec: PayloadCodec;
  tokenlessAccess: TokenlessAccess;
  /** SHA-256 of the bearer token; undefined when none is configured. */
  tokenDigest: Buffer | undefined;
  allowedOrigins: ReadonlySet<string>;
  maxBodyBytes: number;
  options: CodecServerOptions;
}

/** The options checked and resolved; throws on unsafe ones (no token and no tokenless access). */
function codecService(options: CodecServerOptions): CodecService {
  const codec = options.codec ?? (options.keyring ? new AesGcmPayloadCodec(options.keyring) : undefined);
  if (!codec) throw new Error('startCodecServer: give keyring (or codec)');
  const tokenlessAccess = options.tokenlessAccess ?? 'never';
  const token = options.token === '' ? undefined : options.token;
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new Error(`codec server token must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  if (token === undefined && tokenlessAccess === 'never') {
    throw new Error('codec server: no bearer token configured and tokenless access is "never"; nobody could call it');
  }
  return {
    codec,
    tokenlessAccess,
    tokenDigest: token === undefined ? undefined : digest(token),
    allowedOrigins: new Set(options.allowedOrigins ?? DEFAULT_UI_ORIGINS),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    options,
  };
}

/**
 * Starts the codec server; resolves once it listens. Throws on unsafe options (no token and no
 * tokenless access).
 */
export async function startCodecServer(options: CodecServerOptions): Promise<CodecServer> {
  const service = codecService(options);
  // Slow clients (a few bytes a second) are answered 408 and dropped once past the limits, checked
  // every second; each connection has its own clock, so the others are served meanwhile.
  const limits = serverLimits({
    headersTimeoutMs: options.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  });
  const server = createServer(limits, (req, res) => {
    if (options.health?.(req, res)) return;
    handleRequest(service, req, res).then(
      (served) => reportServed(service, req, res, served),
      (error: unknown) => answerFailure(service, req, res, error),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(
      options.port ?? schemaDefault('CARDFLOW_CODEC_SERVER_PORT'),
      options.host ?? schemaDefault('CARDFLOW_CODEC_SERVER_HOST'),
      () => {
        server.off('error', reject);
        resolve();
      },
    );
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A request served: its route (when the path was the codec's) and the payloads it carried. */
interface Served {
  route?: Route;
  count?: number;
}

/**
 * One request, as the Temporal UI or CLI calls the codec: CORS and the origin, the route, a
 * preflight answered, then the method, the token, the body, and the payloads encoded or decoded.
 * A refusal is thrown as an {@link HttpError}.
 */
async function handleRequest(service: CodecService, req: IncomingMessage, res: ServerResponse): Promise<Served> {
  const url = new URL(req.url ?? '/', 'http://codec.invalid');
  setCors(service, req, res);
  const origin = req.headers.origin;
  if (origin !== undefined && !service.allowedOrigins.has(origin))
    throw new HttpError(403, `origin ${origin} is not allowed`);
  const route = matchRoute(url.pathname);
  if (!route) throw new HttpError(404, 'not found: use POST /encode or POST /decode');
  if (req.method === 'OPTIONS') {
    answerPreflight(req, res);
    return { route };
  }
  if (req.method !== 'POST') throw new HttpError(405, 'method not allowed: use POST');
  const why = refusal(service, req);
  if (why !== undefined) throw new HttpError(401, why);
  const payloads = parseBody(await readLimited(req, service.maxBodyBytes));
  let result: Payload[];
  try {
    result = route.op === 'encode' ? await service.codec.encode(payloads) : await service.codec.decode(payloads);
  } catch (error) {
    if (error instanceof PayloadDecryptionError) throw new HttpError(422, error.message);
    throw error;
  }
  send(res, 200, { payloads: result.map(toJsonPayload) });
  return { route, count: payloads.length };
}

/** Undefined when the request may proceed; else why not (401). */
function refusal({ tokenlessAccess, tokenDigest }: CodecService, req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined || header === '') {
    if (tokenlessAccess === 'any') return undefined;
    if (tokenlessAccess === 'loopback' && isLoopback(req.socket.remoteAddress)) return undefined;
    return 'missing bearer token';
  }
  const match = /^Bearer[ ]+(.+)$/i.exec(header);
  // Hashing first gives equal lengths, so timingSafeEqual compares without leaking the length.
  if (!match || tokenDigest === undefined || !timingSafeEqual(digest(match[1]!.trim()), tokenDigest))
    return 'invalid bearer token';
  return undefined;
}

function setCors({ allowedOrigins }: CodecService, req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  res.setHeader('Vary', 'Origin');
  if (origin === undefined || !allowedOrigins.has(origin)) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  // For the UI's "Include cross-origin credentials" setting (fetch credentials: 'include').
  res.setHeader('Access-Control-Allow-Credentials', 'true');
}

function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Content-Type, X-Namespace, Authorization',
    'Access-Control-Max-Age': '600',
    // Chrome's Private Network Access preflight, for a UI served from a public address.
    ...(req.headers['access-control-request-private-network'] === 'true'
      ? { 'Access-Control-Allow-Private-Network': 'true' }
      : {}),
  });
  res.end();
}

function send(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...extraHeaders });
  res.end(text);
}

/** A served request counted and logged (never its body). */
function reportServed({ options }: CodecService, req: IncomingMessage, res: ServerResponse, served: Served): void {
  const { route, count } = served;
  options.onAnswered?.({
    status: res.statusCode,
    ...(route ? { op: route.op } : {}),
    ...(count === undefined ? {} : { payloads: count }),
  });
  options.logger?.info('codec request', {
    method: req.method,
    status: res.statusCode,
    op: route?.op,
    namespace: namespaceOf(req, route),
    payloads: count,
  });
}

/**
 * A refused or failed request answered with its status (500 for anything unforeseen), counted and
 * logged.
 */
function answerFailure({ options }: CodecService, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const { logger } = options;
  const status = error instanceof HttpError ? error.status : 500;
  const message = error instanceof HttpError ? error.message : 'internal error';
  const headers: Record<string, string> =
    status === 401
      ? { 'WWW-Authenticate': 'Bearer realm="cardflow-codec"' }
      : status === 405
        ? { Allow: 'POST, OPTIONS' }
        : {};
  if (!res.headersSent) send(res, status, { error: message }, headers);
  else res.end();
  const route = matchRoute(new URL(req.url ?? '/', 'http://codec.invalid').pathname);
  options.onAnswered?.({ status, ...(route ? { op: route.op } : {}) });
  const log = status >= 500 ? logger?.error.bind(logger) : logger?.warn.bind(logger);
  log?.('codec request refused', {
    method: req.method,
    path: safePath(req),
    status,
    reason: message,
    error: status >= 500 ? error : undefined,
  });
}

function namespaceOf(req: IncomingMessage, route: Route | undefined): string | undefined {
  const header = req.headers['x-namespace'];
  return route?.namespace ?? (Array.isArray(header) ? header[0] : header);
}

/** The path without its query string (a query could carry anything). */
function safePath(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!;
}

/**
 * The body, or a 413 once it passes `limit` (declared or counted); the rest drains
 * (platform/http/body.ts).
 */
async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await readBody(req, { limit });
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new HttpError(413, error.message);
    throw error;
  }
}

function parseBody(body: Buffer): Payload[] {
  let json: unknown;
  try {
    // Codec-protocol JSON (base64 strings only), not a provider body: JSON.parse is right here.
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, 'body is not JSON');
  }
  const parsed = requestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(
      400,
      `body must be {"payloads":[{"metadata":{...},"data":"<base64>"}]}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data.payloads.map((payload) => ({
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')]),
    ),
    data: Buffer.from(payload.data ?? '', 'base64'),
  }));
}

function toJsonPayload(payload: Payload): { metadata: Record<string, string>; data: string } {
  return {
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
    ),
    data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
  };
}

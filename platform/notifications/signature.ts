/**
 * The signature of a notification, in one of two formats (CARDFLOW_NOTIFY_FORMAT), written once
 * here for the worker that signs and the client that verifies (client/notifications.ts):
 *
 * - `cardflow`, the scheme Stripe made familiar: the header
 *   `Cardflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed by the
 *   secret's text;
 * - `standard-webhooks` (the Standard Webhooks specification, verifiable by its libraries in any
 *   language): `webhook-id: <event id>`, `webhook-timestamp: <unix seconds>` and
 *   `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`, keyed by the
 *   bytes of a `whsec_<base64>` secret.
 *
 * Both sign the timestamp with the body, so a notification replayed later is refused by its age
 * and a changed byte by its HMAC. During a rotation two secrets are active and every delivery
 * carries a signature by each (`v1=` twice; two space-separated `v1,` entries), so a backend that
 * knows either one verifies it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NotificationFormat } from '../config/values/notify-format';

export type { NotificationFormat } from '../config/values/notify-format';

export const SIGNATURE_HEADER = 'Cardflow-Signature';
/** The Standard Webhooks headers, as the specification spells them. */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
/** The scheme of the signature; a later one would be `v2`, sent beside `v1` while backends move. */
const SCHEME = 'v1';
/**
 * Notifications older than this are refused by default (Stripe's default, and the specification's).
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;
/** The prefix of a Standard Webhooks secret; the rest is the key, base64. */
export const STANDARD_SECRET_PREFIX = 'whsec_';

type Body = string | Uint8Array;
const text = (body: Body) => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));

export function computeSignature(secret: string, timestamp: number, rawBody: Body): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.${text(rawBody)}`, 'utf8')
    .digest('hex');
}

/**
 * The `Cardflow-Signature` value for `rawBody` signed at `timestamp` (unix seconds), one `v1` per
 * secret.
 */
export function signatureHeader(secret: string | readonly string[], timestamp: number, rawBody: Body): string {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return [`t=${timestamp}`, ...secrets.map((s) => `${SCHEME}=${computeSignature(s, timestamp, rawBody)}`)].join(',');
}

/**
 * The key of a Standard Webhooks secret (`whsec_` and base64, as its libraries read it), or
 * undefined when it is none: the rule CARDFLOW_NOTIFY_SECRET follows in that format.
 */
export function standardSecretKey(secret: string): Buffer | undefined {
  const encoded = secret.startsWith(STANDARD_SECRET_PREFIX) ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : undefined;
}

function standardSignature(key: Buffer, id: string, timestamp: number, rawBody: Body): string {
  return createHmac('sha256', key)
    .update(`${id}.${timestamp}.${text(rawBody)}`, 'utf8')
    .digest('base64');
}

function keyOf(secret: string): Buffer {
  const key = standardSecretKey(secret);
  if (!key) throw new Error(`a Standard Webhooks secret is ${STANDARD_SECRET_PREFIX} and the base64 of 24 to 64 bytes`);
  return key;
}

/**
 * What is signed: the event's id (Standard Webhooks signs it too), the time of the attempt and the
 * body.
 */
export interface SignedContent {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: Body;
}

/**
 * The headers of one delivery of `content` in `format`, signed by every secret (the current one
 * first).
 */
export function notificationHeaders(
  format: NotificationFormat,
  secrets: readonly string[],
  content: SignedContent,
): Record<string, string> {
  if (format === 'cardflow') return { [SIGNATURE_HEADER]: signatureHeader(secrets, content.timestamp, content.body) };
  return {
    [STANDARD_WEBHOOK_HEADERS.id]: content.id,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(content.timestamp),
    [STANDARD_WEBHOOK_HEADERS.signature]: secrets
      .map((s) => `${SCHEME},${standardSignature(keyOf(s), content.id, content.timestamp, content.body)}`)
      .join(' '),
  };
}

/**
 * Why a notification was refused; `reason` says which check failed, for code that branches on it.
 */
export class NotificationSignatureError extends Error {
  override readonly name = 'NotificationSignatureError';
  constructor(
    readonly reason: 'no_header' | 'malformed_header' | 'no_secret' | 'mismatch' | 'too_old' | 'bad_payload',
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyOptions {
  /**
   * How old (or how far in the future) the timestamp may be, in seconds; default 300. `0`: no
   * check.
   */
  toleranceSeconds?: number;
  /** Unix seconds now; default the clock. */
  now?: number;
}

/**
 * What a backend hands over: the `Cardflow-Signature` value itself, or the request's headers
 * (Node's `req.headers`, a Fetch `Headers`, or a plain record in any letter case), in which either
 * format is found.
 */
export type NotificationHeaders =
  | string
  | readonly string[]
  | undefined
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

function headerOf(headers: NotificationHeaders, name: string): string | undefined {
  if (headers === undefined || typeof headers === 'string' || Array.isArray(headers)) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return typeof value === 'string' ? value : value?.[0];
}

function checkAge(timestamp: number, opts: VerifyOptions): void {
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (tolerance > 0 && Math.abs(now - timestamp) > tolerance)
    throw new NotificationSignatureError(
      'too_old',
      `the notification was signed ${now - timestamp} s ago, outside the ${tolerance} s tolerance (a replay, or a clock out of sync)`,
    );
}

const mismatch = () =>
  new NotificationSignatureError(
    'mismatch',
    'the signature does not match the body: pass the raw body exactly as received (not parsed and re-serialized), and check the signing secret',
  );

const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

function verifyCardflow(rawBody: Body, value: string, secrets: readonly string[], opts: VerifyOptions): void {
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of value.split(',')) {
    const [key, ...rest] = part.trim().split('=');
    const field = rest.join('=');
    if (key === 't' && /^\d{1,12}$/.test(field)) timestamp = Number(field);
    else if (key === SCHEME && /^[0-9a-f]{64}$/.test(field)) signatures.push(Buffer.from(field, 'hex'));
  }
  if (timestamp === undefined || signatures.length === 0)
    throw new NotificationSignatureError(
      'malformed_header',
      `${SIGNATURE_HEADER} must be t=<unix seconds>,${SCHEME}=<64 hex digits>`,
    );
  const at = timestamp;
  const expected = secrets.map((s) => Buffer.from(computeSignature(s, at, rawBody), 'hex'));
  if (!expected.some((e) => signatures.some((s) => equal(s, e)))) throw mismatch();
  checkAge(timestamp, opts);
}

function verifyStandard(
  rawBody: Body,
  headers: NotificationHeaders,
  secrets: readonly string[],
  opts: VerifyOptions,
): void {
  const id = headerOf(headers, STANDARD_WEBHOOK_HEADERS.id);
  const time = headerOf(headers, STANDARD_WEBHOOK_HEADERS.timestamp);
  const value = headerOf(headers, STANDARD_WEBHOOK_HEADERS.signature) ?? '';
  const signatures = value
    .split(' ')
    .filter((entry) => entry.startsWith(`${SCHEME},`))
    .map((entry) => Buffer.from(entry.slice(SCHEME.length + 1), 'base64'));
  if (!id || !time || !/^\d{1,12}$/.test(time) || signatures.length === 0)
    throw new NotificationSignatureError(
      'malformed_header',
      `Standard Webhooks needs ${STANDARD_WEBHOOK_HEADERS.id}, ${STANDARD_WEBHOOK_HEADERS.timestamp} (unix seconds) and ${STANDARD_WEBHOOK_HEADERS.signature} (${SCHEME},<base64>)`,
    );
  const keys = secrets.map(standardSecretKey);
  if (keys.some((k) => k === undefined))
    throw new NotificationSignatureError(
      'no_secret',
      `a Standard Webhooks secret is ${STANDARD_SECRET_PREFIX} and the base64 of 24 to 64 bytes`,
    );
  const expected = keys.map((k) => Buffer.from(standardSignature(k!, id, Number(time), rawBody), 'base64'));
  if (!expected.some((e) => signatures.some((s) => equal(s, e)))) throw mismatch();
  checkAge(Number(time), opts);
}

/**
 * Checks a notification against `rawBody`, in the format its headers show: a signature by one of
 * `secret` (one, or both during a rotation) that matches in constant time, and a timestamp within
 * the tolerance. Returns the format; throws a {@link NotificationSignatureError} saying which check
 * failed, never echoing a signature or a secret.
 */
export function verifySignature(
  rawBody: Body,
  headers: NotificationHeaders,
  secret: string | readonly string[],
  opts: VerifyOptions = {},
): NotificationFormat {
  const secrets = (typeof secret === 'string' ? [secret] : secret).filter((s) => s !== '');
  if (secrets.length === 0) throw new NotificationSignatureError('no_secret', 'no signing secret given to verify with');
  const cardflow =
    typeof headers === 'string' || Array.isArray(headers)
      ? (headers as string | readonly string[])
      : headerOf(headers, SIGNATURE_HEADER);
  const value = typeof cardflow === 'string' ? cardflow : cardflow?.[0];
  if (value) {
    verifyCardflow(rawBody, value, secrets, opts);
    return 'cardflow';
  }
  if (headerOf(headers, STANDARD_WEBHOOK_HEADERS.signature) !== undefined) {
    verifyStandard(rawBody, headers, secrets, opts);
    return 'standard-webhooks';
  }
  throw new NotificationSignatureError(
    'no_header',
    `no ${SIGNATURE_HEADER} or ${STANDARD_WEBHOOK_HEADERS.signature} header: is this request from cardflow, and does your framework pass the headers on?`,
  );
}

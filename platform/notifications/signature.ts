/**
 * The signature of a notification, in the scheme Stripe made familiar: the header
 * `Cardflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed by the
 * signing secret both sides share (CARDFLOW_NOTIFY_SECRET). The timestamp is signed with the body,
 * so a notification replayed later is refused by its age, and a changed byte by its HMAC. Written
 * once here for the worker that signs and the client that verifies (client/notifications.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Cardflow-Signature';
/** The scheme of the signature; a later one would be `v2`, sent beside `v1` while backends move. */
const SCHEME = 'v1';
/** Notifications older than this are refused by default (Stripe's default too). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function computeSignature(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The header value for `rawBody` signed at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  return `t=${timestamp},${SCHEME}=${computeSignature(secret, timestamp, rawBody)}`;
}

/** Why a notification was refused; `reason` says which check failed, for code that branches on it. */
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
  /** How old (or how far in the future) the timestamp may be, in seconds; default 300. `0`: no check. */
  toleranceSeconds?: number;
  /** Unix seconds now; default the clock. */
  now?: number;
}

/**
 * Checks `header` against `rawBody`: a `v1` signature that matches (compared in constant time)
 * and a timestamp within the tolerance. Throws a {@link NotificationSignatureError} saying which
 * check failed, never echoing a signature or the secret.
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string | string[] | undefined,
  secret: string,
  opts: VerifyOptions = {},
): void {
  if (!secret) throw new NotificationSignatureError('no_secret', 'no signing secret given to verify with');
  const value = Array.isArray(header) ? header[0] : header;
  if (!value)
    throw new NotificationSignatureError(
      'no_header',
      `no ${SIGNATURE_HEADER} header: is this request from cardflow, and does your framework pass the headers on?`,
    );
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const [key, ...rest] = part.trim().split('=');
    const text = rest.join('=');
    if (key === 't' && /^\d{1,12}$/.test(text)) timestamp = Number(text);
    else if (key === SCHEME && /^[0-9a-f]{64}$/.test(text)) signatures.push(text);
  }
  if (timestamp === undefined || signatures.length === 0)
    throw new NotificationSignatureError(
      'malformed_header',
      `${SIGNATURE_HEADER} must be t=<unix seconds>,${SCHEME}=<64 hex digits>`,
    );
  const expected = Buffer.from(computeSignature(secret, timestamp, rawBody), 'hex');
  if (!signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected)))
    throw new NotificationSignatureError(
      'mismatch',
      'the signature does not match the body: pass the raw body exactly as received (not parsed and re-serialized), and check the signing secret',
    );
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (tolerance > 0 && Math.abs(now - timestamp) > tolerance)
    throw new NotificationSignatureError(
      'too_old',
      `the notification was signed ${now - timestamp} s ago, outside the ${tolerance} s tolerance (a replay, or a clock out of sync)`,
    );
}

/**
 * Request signing and response / webhook signature verification.
 *
 * `X-WSB-SIGNATURE` is base64 of SHA256withRSA (PKCS#1 v1.5) over the exact body bytes
 * (provider-notes, Requests). An operation without parameters sends and signs `{}`; the
 * multipart upload signs the literal `{}`. Responses and webhooks are signed the same way
 * with the platform private key over the raw body (provider-notes, Responses and Webhooks).
 */
import { sign, verify } from 'node:crypto';
import { isBase64 } from './base64';
import { parseJson } from './json';
import { type KeyInput, privateKeyFrom, publicKeyFrom } from './keys';

export const SIGNATURE_HEADER = 'x-wsb-signature';
export const API_KEY_HEADER = 'x-wsb-api-key';
export const REQUEST_ID_HEADER = 'x-wsb-request-id';
export const CATEGORY_HEADER = 'x-wsb-category';

/** What an operation without parameters sends and signs, and what the multipart upload signs. */
export const EMPTY_BODY = '{}';

/** The answer the provider expects from a webhook receiver (provider-notes, Webhooks). */
export const WEBHOOK_ACK_BODY = '{"success":true,"code":200,"msg":null,"data":null}';

function bytes(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/**
 * Signs body bytes (an empty body signs `{}`); returns the base64 signature for X-WSB-SIGNATURE.
 */
export function signBody(body: string | Uint8Array, privateKey: KeyInput): string {
  const data = body.length === 0 ? Buffer.from(EMPTY_BODY) : bytes(body);
  return sign('sha256', data, privateKeyFrom(privateKey)).toString('base64');
}

/**
 * True when `signature` is a valid base64 SHA256withRSA signature of `body`; false on any garbage,
 * never throws.
 */
export function verifySignature(
  body: string | Uint8Array,
  signature: string | undefined | null,
  publicKey: KeyInput,
): boolean {
  if (typeof signature !== 'string') return false;
  const sig = signature.trim();
  if (!isBase64(sig)) return false;
  try {
    return verify('sha256', bytes(body), publicKeyFrom(publicKey), Buffer.from(sig, 'base64'));
  } catch {
    return false;
  }
}

/** Headers as Node's IncomingHttpHeaders, a fetch `Headers`, or a plain record. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/** Reads a header case-insensitively; the first value when repeated. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === lower) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

export type WebhookSignatureProblem = 'missing_header' | 'bad_base64' | 'mismatch' | 'bad_json';

/** A webhook that must not be trusted; `problem` says why, the message says what to check. */
export class WebhookSignatureError extends Error {
  readonly type = 'WebhookSignatureError';
  constructor(
    readonly problem: WebhookSignatureProblem,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export interface VerifiedWebhook {
  /** X-WSB-CATEGORY; may be a category this code does not know (acknowledge and record it). */
  category: string | undefined;
  /** X-WSB-REQUEST-ID; not an idempotency key on its own (provider-notes, Webhooks). */
  requestId: string | undefined;
  /** The body parsed losslessly (19-digit ids and amounts keep their digits). */
  payload: unknown;
}

/**
 * Verifies a webhook over its raw body (not a re-serialization of parsed JSON) and parses it.
 * Throws WebhookSignatureError naming the problem: header missing, signature not base64,
 * signature does not match (wrong platform key, or a body changed in transit), body not JSON.
 */
export function verifyWebhook(input: {
  rawBody: string | Uint8Array;
  headers: HeaderSource;
  platformPublicKey: KeyInput;
}): VerifiedWebhook {
  const signature = headerValue(input.headers, SIGNATURE_HEADER)?.trim();
  if (!signature) {
    throw new WebhookSignatureError(
      'missing_header',
      'No X-WSB-SIGNATURE header: the request was not signed by the provider.',
    );
  }
  if (!isBase64(signature)) {
    throw new WebhookSignatureError(
      'bad_base64',
      'X-WSB-SIGNATURE is not standard base64: it cannot be a provider signature.',
    );
  }
  if (!verifySignature(input.rawBody, signature, input.platformPublicKey)) {
    throw new WebhookSignatureError(
      'mismatch',
      'X-WSB-SIGNATURE does not match the body: check that the platform public key is the one from the provider dashboard and that the raw, unmodified body is verified.',
    );
  }
  let payload: unknown;
  try {
    payload = parseJson(Buffer.from(bytes(input.rawBody)).toString('utf8'));
  } catch {
    throw new WebhookSignatureError('bad_json', 'The webhook is signed but its body is not JSON.');
  }
  return {
    category: headerValue(input.headers, CATEGORY_HEADER),
    requestId: headerValue(input.headers, REQUEST_ID_HEADER),
    payload,
  };
}

export interface SignedWebhook {
  body: string;
  headers: Record<string, string>;
}

/**
 * Builds a webhook as the provider sends it (for the sandbox and tests): the body text and
 * the headers Content-Type, X-WSB-CATEGORY, X-WSB-SIGNATURE and X-WSB-REQUEST-ID.
 * `body` is sent verbatim; serialize payloads with `stringifyJson` so numbers keep their digits.
 */
export function buildSignedWebhook(input: {
  body: string;
  category: string;
  platformPrivateKey: KeyInput;
  requestId: string;
}): SignedWebhook {
  return {
    body: input.body,
    headers: {
      'content-type': 'application/json',
      [CATEGORY_HEADER]: input.category,
      [SIGNATURE_HEADER]: signBody(input.body, input.platformPrivateKey),
      [REQUEST_ID_HEADER]: input.requestId,
    },
  };
}

/**
 * The one HTTP-level retry. Two retry layers multiply: the Temporal retry policy owns backoff; the
 * client retries a read at most once, immediately, and only when the connection itself failed:
 * typically a keep-alive socket the server closed between requests. Never a timeout (the provider
 * may still be working), an HTTP status, an envelope, or a mutation: a mutation's failed
 * connection is an ambiguous outcome that only its activity's lookup rule may resolve
 * (docs/exactly-once.md).
 */
import { ProviderErrorTypes } from './error-types';
import { ProviderTransportError } from './errors';

/** Connection-level failures (Node errno codes and undici's socket errors). */
export const RETRYABLE_CONNECTION_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET', // "other side closed"
  'UND_ERR_CLOSED',
]);

/** At most this many HTTP-level retries per call. */
export const MAX_TRANSPORT_RETRIES = 1;

/** Finds a connection error code on an error or along its `cause` chain. */
export function connectionErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE_CONNECTION_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Whether to send the same request again right away. `retriesSoFar` counts retries already
 * made for this call. True only for a plain ProviderTransportError (not a timeout, not an
 * abort) whose code is a connection failure, and only once.
 */
export function shouldRetryTransport(error: unknown, retriesSoFar: number): boolean {
  if (retriesSoFar >= MAX_TRANSPORT_RETRIES) return false;
  if (!(error instanceof ProviderTransportError)) return false;
  if (error.type !== ProviderErrorTypes.transport) return false; // timeout and abort subclasses
  return error.code !== undefined && RETRYABLE_CONNECTION_CODES.has(error.code);
}

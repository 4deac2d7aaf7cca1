/**
 * The one way cardflow's HTTP servers read a body and bound a request: a body is kept up to a byte
 * limit, and the rest read and dropped rather than the connection cut, so a client that writes its
 * whole body first gets the refusal (413) instead of a reset; headers and the whole request must
 * arrive within time limits ({@link serverLimits}). No framework: each server has a few routes
 * and answers in its own format (a codec protocol, the provider's signed envelope).
 */
import type { IncomingMessage, ServerOptions } from 'node:http';

/**
 * A request's headers must have arrived this long after it began, or it is answered 408 and
 * dropped.
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 5_000;
/** How often Node's server looks for requests past their limits. */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * The body passed its limit; `received` is what arrived in all when the reader counted to the end.
 */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(
    readonly limit: number,
    readonly received?: number,
  ) {
    super(`request body over ${limit} bytes`);
  }
}

/** The body did not arrive whole: the client went away, or the connection failed. */
export class BodyIncompleteError extends Error {
  override readonly name = 'BodyIncompleteError';
}

export interface BodyLimits {
  /** Bytes kept; a longer body is refused with {@link BodyTooLargeError}. */
  limit: number;
  /**
   * Refuse only once the whole body has arrived, with its size (the sandbox reports it), instead
   * of as soon as the declared length or the bytes read pass `limit`.
   */
  countToEnd?: boolean;
  /**
   * Past this many bytes the connection is cut instead of drained. Default: never; the server's
   * request timeout ({@link serverLimits}) bounds the drain.
   */
  cutOffAfter?: number;
}

/**
 * The body of `req`, at most `limit` bytes. Never a `for await` over the request: leaving that
 * loop early destroys the socket, and the client would see a reset instead of the refusal.
 */
export function readBody(
  req: IncomingMessage,
  { limit, countToEnd = false, cutOffAfter }: BodyLimits,
): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (!countToEnd && Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) chunks.push(chunk);
      else if (cutOffAfter !== undefined && received > cutOffAfter) req.destroy();
      else if (!countToEnd) settle(new BodyTooLargeError(limit));
    });
    req.on('end', () => settle(received > limit ? new BodyTooLargeError(limit, received) : undefined));
    req.on('error', (error) => settle(new BodyIncompleteError(error.message, { cause: error })));
    req.on('close', () => settle(new BodyIncompleteError('connection closed before the body was complete')));
  });
}

/**
 * Options for `http.createServer`: headers within `headersTimeoutMs`, the whole request (body
 * included) within `requestTimeoutMs` (never less than the headers' limit; absent for a listener
 * that reads no body, the worker's health listener and `/metrics`, so a body trickled at it holds
 * the connection no longer than headers would), checked every second per connection so a slow
 * client is answered 408 and dropped while the others are served.
 */
export function serverLimits(
  limits: {
    headersTimeoutMs?: number | undefined;
    requestTimeoutMs?: number;
  } = {},
): ServerOptions {
  const headersTimeout = limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  return {
    headersTimeout,
    requestTimeout: Math.max(limits.requestTimeoutMs ?? headersTimeout, headersTimeout),
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
  };
}

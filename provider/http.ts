/**
 * HTTP transport: one undici Pool per base URL with keep-alive, a per-request timeout, the
 * caller's AbortSignal, request signing, raw response bytes and response-signature checking.
 * It knows nothing of envelopes (see envelope.ts); it reports what the signature check found.
 *
 * Every operation is a POST with `Content-Type: application/json`, `X-WSB-API-KEY` and
 * `X-WSB-SIGNATURE` over the exact body bytes; the multipart upload signs `{}`
 * (provider-notes, Requests).
 */
import type { KeyObject } from 'node:crypto';
import { type Dispatcher, type FormData, Pool } from 'undici';
import {
  ProviderAbortedError,
  ProviderTimeoutError,
  ProviderTransportError,
  type ProviderErrorContext,
} from './errors';
import { connectionErrorCode, shouldRetryTransport } from './retry';
import { API_KEY_HEADER, EMPTY_BODY, REQUEST_ID_HEADER, SIGNATURE_HEADER, signBody, verifySignature } from './signing';
import { DEFAULT_CONNECTIONS } from './config';

export interface TransportOptions {
  /**
   * e.g. `https://provider.example` or `http://127.0.0.1:4010/prefix`; operation paths are
   * appended.
   */
  baseUrl: string;
  apiKey: string;
  merchantPrivateKey: KeyObject;
  platformPublicKey: KeyObject;
  /** Whole-request timeout (connect, headers and body). */
  timeoutMs: number;
  /** Verify the response X-WSB-SIGNATURE (default true). */
  verifyResponseSignatures?: boolean;
  /** Pool size (default DEFAULT_CONNECTIONS of config.ts, 32). */
  connections?: number;
  /** Idle keep-alive time of a pooled socket (default 4000 ms). */
  keepAliveTimeoutMs?: number;
}

/**
 * What checking the response X-WSB-SIGNATURE found; `unchecked` when verification is turned off.
 */
export type SignatureStatus = 'valid' | 'invalid' | 'missing' | 'unchecked';

export interface RawResponse {
  status: number;
  /** The exact response bytes (the signature covers these). */
  body: Buffer;
  signature: SignatureStatus;
  requestId: string | undefined;
}

export type RequestBody = { kind: 'json'; text: string } | { kind: 'multipart'; form: FormData };

export interface TransportRequest {
  /** Client method name, for errors. */
  operation: string;
  path: string;
  body: RequestBody;
  merchantOrderNo?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Overrides the transport's timeoutMs for this call. */
  timeoutMs?: number;
  /**
   * Whether a failed connection may be retried at once with the same bytes. Only for reads: a
   * mutation whose connection failed may have been committed, and its caller (the activity) must
   * resolve that ambiguity with its own lookup rule before anything is sent again.
   */
  resendable: boolean;
}

export interface Transport {
  /**
   * Sends one request (a read is retried once on a failed connection); throws only
   * ProviderTransportError and subclasses.
   */
  send(request: TransportRequest): Promise<RawResponse>;
  close(): Promise<void>;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * One request's AbortSignal: aborted by the caller's signal or once `timeoutMs` has passed (the
 * whole request, body included). One controller, one timer and one listener, all undone by
 * `done()`: `AbortSignal.any([caller, AbortSignal.timeout(ms)])` did the same at about twice the
 * transport's own CPU per call on the worker's main thread (`npm run bench` (a) profiles it).
 */
function requestSignal(
  timeoutMs: number,
  caller: AbortSignal | undefined,
): { signal: AbortSignal; timedOut: () => boolean; done: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  // As AbortSignal.timeout: a pending request's timer alone does not keep the process alive.
  timer.unref();
  const onAbort = () => controller.abort(caller?.reason);
  caller?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

/** Creates the pooled transport. Close it when done (`client.close()`). */
export function createHttpTransport(options: TransportOptions): Transport {
  const url = new URL(options.baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, {
    connections: options.connections ?? DEFAULT_CONNECTIONS,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4000,
    pipelining: 1,
  });
  const verify = options.verifyResponseSignatures ?? true;

  async function attempt(request: TransportRequest): Promise<RawResponse> {
    const timeoutMs = request.timeoutMs ?? options.timeoutMs;
    const context: ProviderErrorContext = { operation: request.operation, merchantOrderNo: request.merchantOrderNo };
    const { body } = request;
    const signedText = body.kind === 'json' ? body.text : EMPTY_BODY;
    const headers: Record<string, string> = {
      [API_KEY_HEADER]: options.apiKey,
      [SIGNATURE_HEADER]: signBody(signedText, options.merchantPrivateKey),
    };
    if (body.kind === 'json') headers['content-type'] = 'application/json';
    const { signal, timedOut, done } = requestSignal(timeoutMs, request.signal);
    try {
      if (request.signal?.aborted) throw request.signal.reason;
      const response = await pool.request({
        method: 'POST',
        path: prefix + request.path,
        headers,
        body:
          body.kind === 'json' ? body.text : (body.form as unknown as NonNullable<Dispatcher.DispatchOptions['body']>),
        signal,
      });
      const bytes = Buffer.from(await response.body.arrayBuffer());
      const signature = firstHeader(response.headers[SIGNATURE_HEADER]);
      return {
        status: response.statusCode,
        body: bytes,
        signature: !verify
          ? 'unchecked'
          : !signature
            ? 'missing'
            : verifySignature(bytes, signature, options.platformPublicKey)
              ? 'valid'
              : 'invalid',
        requestId: firstHeader(response.headers[REQUEST_ID_HEADER]),
      };
    } catch (err) {
      if (request.signal?.aborted) throw new ProviderAbortedError({ ...context, cause: err });
      if (timedOut()) throw new ProviderTimeoutError(timeoutMs, { ...context, cause: err });
      const code = connectionErrorCode(err) ?? (err as { code?: unknown }).code;
      const reason = err instanceof Error ? err.message : String(err);
      throw new ProviderTransportError(`request failed before a response (${reason}; outcome unknown)`, {
        ...context,
        code: typeof code === 'string' ? code : undefined,
        cause: err,
      });
    } finally {
      done();
    }
  }

  return {
    async send(request) {
      for (let retries = 0; ; retries += 1) {
        try {
          return await attempt(request);
        } catch (err) {
          if (!request.resendable || !shouldRetryTransport(err, retries)) throw err;
        }
      }
    },
    async close() {
      await pool.close();
    },
  };
}

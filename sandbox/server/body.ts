/**
 * Reads a request body as raw bytes with a size cap. Bytes past the cap are drained and
 * discarded (so the client can finish writing and read the failure envelope) up to a hard
 * limit, past which the connection is cut.
 */
import type { IncomingMessage } from 'node:http';
import { isLosslessNumber } from '../../api/json';

/** Cap for JSON bodies: far above any request of the spec. */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** Cap for the multipart upload: a 2M file (spec, File upload) plus part headers. */
export const MULTIPART_BODY_LIMIT = 2.5 * 1024 * 1024;
/** Past this many bytes the sandbox stops draining and destroys the socket. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

export type BodyResult =
  | { ok: true; bytes: Buffer }
  | { ok: false; tooLarge: true; received: number }
  | { ok: false; tooLarge: false; error: string };

export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) chunks.push(chunk);
      else if (received > DRAIN_LIMIT) req.destroy();
    });
    req.on('end', () =>
      finish(received > limit ? { ok: false, tooLarge: true, received } : { ok: true, bytes: Buffer.concat(chunks) }),
    );
    req.on('error', (err) => finish({ ok: false, tooLarge: false, error: err.message }));
    req.on('close', () =>
      finish({ ok: false, tooLarge: false, error: 'connection closed before the body was complete' }),
    );
  });
}

/**
 * A parsed JSON body (numbers as lossless numbers, api/json.ts) with every number as a plain JS
 * number: for the shell's own settings (rates, milliseconds), never for money or ids.
 */
export function plainNumbers(value: unknown): unknown {
  if (isLosslessNumber(value)) return Number(String(value));
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainNumbers(v)]));
  return value;
}

/**
 * Reads a request body as raw bytes with a size cap. Bytes past the cap are drained and
 * discarded (so the client can finish writing and read the failure envelope) up to a hard
 * limit, past which the connection is cut.
 */
import type { IncomingMessage } from 'node:http';

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

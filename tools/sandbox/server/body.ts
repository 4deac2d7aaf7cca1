/**
 * The sandbox's body limits, read through platform/http/body.ts: bytes past the cap are drained and
 * discarded (so the client can finish writing and read the failure envelope) up to a hard
 * limit, past which the connection is cut.
 */
import type { IncomingMessage } from 'node:http';
import { isLosslessNumber } from '../../../provider/json';
import { readBody } from '../../../platform/http/body';

/** Cap for JSON bodies: far above any request of the spec. */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** Cap for the multipart upload: a 2M file (spec, File upload) plus part headers. */
export const MULTIPART_BODY_LIMIT = 2.5 * 1024 * 1024;
/** Past this many bytes the sandbox stops draining and destroys the socket. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/** A body capped at `limit`, counted to its end when larger (the refusal says how large it was). */
export function readSandboxBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return readBody(req, { limit, countToEnd: true, cutOffAfter: DRAIN_LIMIT });
}

/**
 * A parsed JSON body (numbers as lossless numbers, provider/json.ts) with every number as a plain
 * JS number: for the shell's own settings (rates, milliseconds), never for money or ids.
 */
export function plainNumbers(value: unknown): unknown {
  if (isLosslessNumber(value)) return Number(String(value));
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainNumbers(v)]));
  return value;
}

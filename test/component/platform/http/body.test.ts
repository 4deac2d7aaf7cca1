/**
 * The servers' one body reader (platform/http/body.ts) on a real local server: a body within its
 * limit whole, a larger one refused (at once, or counted to its end) while the client still gets
 * the answer rather than a reset, and the server limits as Node's options.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { type BodyLimits, BodyTooLargeError, readBody, serverLimits } from '../../../../platform/http/body';

let server: Server;
let url = '';
let limits: BodyLimits = { limit: 16 };

beforeAll(async () => {
  server = createServer((req, res) => {
    readBody(req, limits).then(
      (bytes) => res.end(JSON.stringify({ ok: bytes.toString('utf8') })),
      (error: unknown) => {
        const tooLarge = error instanceof BodyTooLargeError;
        res.statusCode = tooLarge ? 413 : 400;
        res.end(JSON.stringify(tooLarge ? { limit: error.limit, received: error.received ?? null } : {}));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function post(body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await request(url, { method: 'POST', body, headers });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

it('reads a body within its limit whole', async () => {
  limits = { limit: 16 };
  expect(await post('sixteen bytes ok')).toEqual({ status: 200, body: { ok: 'sixteen bytes ok' } });
});

it('refuses a larger body as soon as it passes the limit, and the client reads the answer', async () => {
  limits = { limit: 16 };
  // 1 MiB sent in full before the answer is read: drained, not reset.
  expect(await post(Buffer.alloc(1024 * 1024, 0x61))).toEqual({ status: 413, body: { limit: 16, received: null } });
  // A chunked body (no declared length) is counted.
  const chunked = await request(url, {
    method: 'POST',
    body: Readable.from([Buffer.alloc(10, 0x61), Buffer.alloc(10, 0x61)]),
  });
  expect(chunked.statusCode).toBe(413);
  await chunked.body.dump();
});

it('with countToEnd, says how large the refused body was', async () => {
  limits = { limit: 16, countToEnd: true };
  expect(await post(Buffer.alloc(40_000, 0x61))).toEqual({ status: 413, body: { limit: 16, received: 40_000 } });
});

it('server limits: headers in 5 s by default, the request never shorter than the headers', () => {
  expect(serverLimits({ requestTimeoutMs: 10_000 })).toEqual({
    headersTimeout: 5_000,
    requestTimeout: 10_000,
    connectionsCheckingInterval: 1_000,
  });
  expect(serverLimits({ headersTimeoutMs: 8_000, requestTimeoutMs: 2_000 }).requestTimeout).toBe(8_000);
});

import { defaultPayloadConverter } from '@temporalio/common';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { parseKeyList } from '../../../../platform/codec/keys';
import { AesGcmPayloadCodec } from '../../../../platform/codec/payload-codec';
import { type CodecServer, startCodecServer } from '../../../../platform/codec/server';
import { createLogger } from '../../../../platform/logging/logger';
import { endlessHeaders, postWhole, slowRequest, trickledBody } from '../../support/slow-client';

const keyring = parseKeyList(`k1:${Buffer.alloc(32, 5).toString('base64')}`);
const token = 'test-token-0123456789abcdef';
const uiOrigin = 'http://127.0.0.1:8233';
const holder = { firstName: 'Zoltana', email: 'zoltana.q@example.org' };

type JsonPayload = { metadata: Record<string, string>; data: string };
const toJson = (value: unknown): JsonPayload => {
  const payload = defaultPayloadConverter.toPayload(value);
  return {
    metadata: Object.fromEntries(
      Object.entries(payload.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
    ),
    data: Buffer.from(payload.data!).toString('base64'),
  };
};
const fromJson = (payload: JsonPayload): unknown =>
  defaultPayloadConverter.fromPayload({
    metadata: Object.fromEntries(Object.entries(payload.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(payload.data, 'base64'),
  });

async function post(server: CodecServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, json: (await res.body.json()) as Record<string, unknown> };
}

describe('codec server with a bearer token', () => {
  let server: CodecServer;
  const logLines: string[] = [];
  beforeAll(async () => {
    server = await startCodecServer({
      keyring,
      port: 0,
      token,
      logger: createLogger({ write: (line) => logLines.push(line) }),
    });
  });
  afterAll(() => server.stop());
  const auth = { authorization: `Bearer ${token}` };

  it('encodes and decodes over HTTP, matching the shared codec', async () => {
    const encoded = await post(server, '/encode', { payloads: [toJson(holder)] }, auth);
    expect(encoded.status).toBe(200);
    const [payload] = encoded.json.payloads as JsonPayload[];
    expect(Buffer.from(payload!.metadata.encoding!, 'base64').toString()).toBe('binary/encrypted');
    expect(Buffer.from(payload!.data, 'base64').toString('latin1')).not.toContain(holder.email);

    // What a worker wrote, the server reads, and the reverse.
    const decoded = await post(
      server,
      '/default/decode',
      { payloads: [payload] },
      { ...auth, 'x-namespace': 'default' },
    );
    expect(decoded.status).toBe(200);
    expect(fromJson((decoded.json.payloads as JsonPayload[])[0]!)).toEqual(holder);
    const fromWorker = await new AesGcmPayloadCodec(keyring).decode([
      {
        metadata: Object.fromEntries(Object.entries(payload!.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
        data: Buffer.from(payload!.data, 'base64'),
      },
    ]);
    expect(defaultPayloadConverter.fromPayload(fromWorker[0]!)).toEqual(holder);
  });

  it('answers the UI preflight with its origin, methods, headers and credentials', async () => {
    const res = await request(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: {
        origin: uiOrigin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-namespace,authorization',
      },
    });
    await res.body.dump();
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(uiOrigin);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['content-type', 'x-namespace', 'authorization']) expect(allowed).toContain(header);
  });

  it('refuses a preflight and a request from an origin that is not the UI', async () => {
    const preflight = await request(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    await preflight.body.dump();
    expect(preflight.statusCode).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const res = await post(server, '/decode', { payloads: [] }, { ...auth, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('answers 401 without a token and with a wrong one, with CORS headers so the UI can read it', async () => {
    const missing = await post(server, '/decode', { payloads: [] }, { origin: uiOrigin });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toContain('Bearer');
    expect(missing.headers['access-control-allow-origin']).toBe(uiOrigin);
    const wrong = await post(server, '/decode', { payloads: [] }, { authorization: `Bearer ${token}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: 'invalid bearer token' });
  });

  it('reads `{}` as no payloads (proto3 JSON omits an empty list; the Temporal CLI sends it for a query without arguments)', async () => {
    for (const path of ['/encode', '/decode'])
      expect(await post(server, path, {}, auth)).toMatchObject({ status: 200, json: { payloads: [] } });
    expect((await post(server, '/encode', { payloads: 'none' }, auth)).status).toBe(400);
  });

  it('refuses bad bodies, oversized bodies, other methods and paths', async () => {
    expect((await post(server, '/decode', 'not json', auth)).status).toBe(400);
    expect((await post(server, '/decode', { payloads: [{ data: '***' }] }, auth)).status).toBe(400);
    const get = await request(`${server.url}/decode`, { method: 'GET', headers: auth });
    await get.body.dump();
    expect(get.statusCode).toBe(405);
    expect((await post(server, '/a/b/decode', { payloads: [] }, auth)).status).toBe(404);
  });

  it('answers 422 naming the key id when a payload was written with an unknown key', async () => {
    const other = new AesGcmPayloadCodec(parseKeyList(`k9:${Buffer.alloc(32, 6).toString('base64')}`));
    const [payload] = await other.encode([defaultPayloadConverter.toPayload(holder)]);
    const body = {
      payloads: [
        {
          metadata: Object.fromEntries(
            Object.entries(payload!.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
          ),
          data: Buffer.from(payload!.data!).toString('base64'),
        },
      ],
    };
    const res = await post(server, '/decode', body, auth);
    expect(res.status).toBe(422);
    expect(String(res.json.error)).toContain('key id "k9"');
  });

  it('never logs payload contents or the token', () => {
    const output = logLines.join('\n');
    expect(output).toContain('"status":200');
    for (const secret of [holder.email, holder.firstName, token]) expect(output).not.toContain(secret);
  });
});

describe('codec server limits and tokenless access', () => {
  it('refuses a body over the cap with 413', async () => {
    const server = await startCodecServer({ keyring, port: 0, token, maxBodyBytes: 1024 });
    try {
      const res = await post(
        server,
        '/encode',
        { payloads: [toJson('x'.repeat(4096))] },
        { authorization: `Bearer ${token}` },
      );
      expect(res.status).toBe(413);
    } finally {
      await server.stop();
    }
  });

  it('in loopback mode lets a local caller in without a token (the dev UI) but still refuses a wrong token', async () => {
    const server = await startCodecServer({ keyring, port: 0, token, tokenlessAccess: 'loopback' });
    try {
      const encoded = await post(server, '/encode', { payloads: [toJson(holder)] }, { origin: uiOrigin });
      expect(encoded.status).toBe(200);
      expect(encoded.headers['access-control-allow-origin']).toBe(uiOrigin);
      expect(
        (await post(server, '/decode', { payloads: [] }, { authorization: 'Bearer nope-nope-nope-nope' })).status,
      ).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('answers the documented 413 to a 10 MiB body, announced or chunked, never a connection reset', async () => {
    const server = await startCodecServer({ keyring, port: 0, token });
    try {
      const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
      const auth = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
      for (let i = 0; i < 5; i++) expect(await postWhole(`${server.url}/decode`, auth, body)).toBe(413);
      const announced = await request(`${server.url}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
      expect(announced.statusCode).toBe(413);
      expect(await announced.body.json()).toEqual({ error: `request body over ${8 * 1024 * 1024} bytes` });
      const chunked = await request(`${server.url}/encode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: Readable.from(
          (function* () {
            for (let i = 0; i < 10; i++) yield body.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024);
          })(),
        ),
      });
      expect(chunked.statusCode).toBe(413);
      await chunked.body.dump();
    } finally {
      await server.stop();
    }
  });

  it('drops slow clients within its limits while serving others', async () => {
    const server = await startCodecServer({
      keyring,
      port: 0,
      token,
      headersTimeoutMs: 3_000,
      requestTimeoutMs: 4_000,
    });
    const slow = [
      slowRequest(server.url, endlessHeaders('/decode'), 200, 15_000),
      slowRequest(server.url, trickledBody('/decode'), 200, 15_000),
    ];
    let dropped = 0;
    for (const s of slow) void s.closed.then(() => (dropped += 1));
    try {
      expect((await post(server, '/decode', { payloads: [] }, { authorization: `Bearer ${token}` })).status).toBe(200);
      // Answered while both slow clients still held their connections: they did not stand in its
      // way.
      expect(dropped).toBe(0);
      // Dropped by the server's limits (headers 3 s, request 4 s, checked every second), long
      // before they give up.
      for (const ms of await Promise.all(slow.map((s) => s.closed))) expect(ms).toBeLessThan(10_000);
      expect(slow.map((s) => s.received().split('\r\n')[0])).toEqual([
        'HTTP/1.1 408 Request Timeout',
        'HTTP/1.1 408 Request Timeout',
      ]);
    } finally {
      for (const s of slow) s.stop();
      await server.stop();
    }
  }, 20_000);

  it.each([
    ['no token, never', 'never', undefined, 401],
    ['no token, loopback', 'loopback', undefined, 200],
    ['no token, any', 'any', undefined, 200],
    ['wrong token, loopback', 'loopback', 'Bearer wrong-wrong-wrong-wrong', 401],
    ['wrong token, any', 'any', 'Bearer wrong-wrong-wrong-wrong', 401],
    ['right token, never', 'never', `Bearer ${token}`, 200],
  ] as const)('treats /encode and /decode alike: %s', async (_case, tokenlessAccess, authorization, status) => {
    const server = await startCodecServer({ keyring, port: 0, token, tokenlessAccess });
    try {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      for (const path of ['/encode', '/decode', '/default/encode', '/default/decode'])
        expect([path, (await post(server, path, { payloads: [] }, headers)).status]).toEqual([path, status]);
    } finally {
      await server.stop();
    }
  });

  it('refuses to start with neither a token nor tokenless access, or with a short token', async () => {
    await expect(startCodecServer({ keyring, port: 0 })).rejects.toThrow('no bearer token configured');
    await expect(startCodecServer({ keyring, port: 0, token: 'short' })).rejects.toThrow('at least 16 characters');
  });
});

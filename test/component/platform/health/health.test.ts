/**
 * `/healthz` and `/readyz`: the worker's listener, and the routes beside the codec server's own.
 */
import { request } from 'undici';
import { parseKeyList } from '../../../../platform/codec/keys';
import { type CodecServer, startCodecServer } from '../../../../platform/codec/server';
import { type HealthCheck, keysCheck, temporalCheck } from '../../../../platform/health/checks';
import { healthRoutes } from '../../../../platform/health/routes';
import { type HealthServer, parseListenAddress, startHealthServer } from '../../../../platform/health/server';
import { probe } from '../../../../platform/health/probe';

async function get(url: string, method = 'GET') {
  const res = await request(url, { method });
  const text = await res.body.text();
  const isJson = String(res.headers['content-type']).startsWith('application/json');
  return { status: res.statusCode, json: isJson ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

describe('the health listener', () => {
  let ready = true;
  let server: HealthServer;
  const checks: HealthCheck[] = [
    { name: 'switch', check: async () => (ready ? 'on' : Promise.reject(new Error('switched off'))) },
    keysCheck('codec-keys', () => 'current k1'),
  ];
  beforeAll(async () => {
    server = await startHealthServer({ host: '127.0.0.1', port: 0, checks });
  });
  afterAll(() => server.stop());

  it('answers /healthz alive without running the checks', async () => {
    ready = false;
    expect(await get(`${server.url}/healthz`)).toEqual({ status: 200, json: { status: 'alive' } });
  });

  it('answers /readyz 200 with every check when all pass, 503 naming the failing one otherwise', async () => {
    ready = true;
    const ok = await get(`${server.url}/readyz`);
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({
      status: 'ready',
      ready: true,
      checks: [
        { name: 'switch', ok: true, detail: 'on' },
        { name: 'codec-keys', ok: true, detail: 'current k1' },
      ],
    });
    ready = false;
    const down = await get(`${server.url}/readyz`);
    expect(down.status).toBe(503);
    expect(down.json?.checks).toContainEqual({ name: 'switch', ok: false, detail: 'switched off' });
  });

  it('fails a check that does not answer in time', async () => {
    const slow = await startHealthServer({
      host: '127.0.0.1',
      port: 0,
      checks: [{ name: 'slow', check: () => new Promise(() => undefined) }],
    });
    try {
      const started = Date.now();
      const res = await get(`${slow.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.json?.checks).toEqual([{ name: 'slow', ok: false, detail: 'slow: no answer within 2000 ms' }]);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await slow.stop();
    }
  });

  it('refuses other methods and paths', async () => {
    expect((await get(`${server.url}/readyz`, 'POST')).status).toBe(405);
    expect((await get(`${server.url}/metricz`)).status).toBe(404);
  });

  it('the probe command passes on 200 and fails on 503 or a closed port', async () => {
    ready = true;
    await expect(probe(`${server.url}/readyz`)).resolves.toContain('"ready"');
    ready = false;
    await expect(probe(`${server.url}/readyz`)).rejects.toThrow(/HTTP 503/);
    const port = new URL(server.url).port;
    await expect(probe(`tcp://127.0.0.1:${port}`)).resolves.toContain('accepts connections');
    await expect(probe('tcp://127.0.0.1:1')).rejects.toThrow();
  });
});

describe('temporalCheck', () => {
  it('passes when the frontend is SERVING, and names the status otherwise', async () => {
    const answering = (status: number) => ({ healthService: { check: async () => ({ status }) } });
    await expect(temporalCheck(answering(1)).check()).resolves.toBeUndefined();
    await expect(temporalCheck(answering(2)).check()).rejects.toThrow(/not serving \(status 2\)/);
  });
});

describe('parseListenAddress', () => {
  it('reads host:port, [v6]:port and a bare port, and names the variable when wrong', () => {
    expect(parseListenAddress('0.0.0.0:9464', 'X')).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(parseListenAddress('[::1]:80', 'X')).toEqual({ host: '::1', port: 80 });
    expect(parseListenAddress('4200', 'X')).toEqual({ host: '127.0.0.1', port: 4200 });
    expect(() => parseListenAddress('localhost', 'CARDFLOW_WORKER_HEALTH_ADDRESS')).toThrow(
      /CARDFLOW_WORKER_HEALTH_ADDRESS="localhost" must be host:port/,
    );
    expect(() => parseListenAddress('a:70000', 'X')).toThrow(/must be host:port/);
  });
});

describe('the codec server with health routes', () => {
  let server: CodecServer;
  beforeAll(async () => {
    server = await startCodecServer({
      keyring: parseKeyList(`k1:${Buffer.alloc(32, 5).toString('base64')}`),
      port: 0,
      token: 'test-token-0123456789abcdef',
      tokenlessAccess: 'never',
      health: healthRoutes([keysCheck('codec-keys', () => 'current k1')]),
    });
  });
  afterAll(() => server.stop());

  it('answers /readyz without the token, and still refuses /decode without it', async () => {
    const ready = await get(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.json?.ready).toBe(true);
    const decode = await request(`${server.url}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"payloads":[]}',
    });
    await decode.body.text();
    expect(decode.statusCode).toBe(401);
  });
});

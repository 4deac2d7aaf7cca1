/**
 * The listeners that take no request body, the worker's health listener (platform/health/server.ts)
 * and the `/metrics` listener of the receiver and the codec server
 * (platform/telemetry/metrics-server.ts), bound a request as the other servers do
 * (platform/http/body.ts, serverLimits): a client that sends its headers a byte at a time, or
 * trickles a body nobody reads, is answered 408 and dropped within seconds, and the others are
 * served meanwhile.
 */
import { request } from 'undici';
import { startHealthServer } from '../../../../platform/health/server';
import { createProcessRegistry, startMetricsServer } from '../../../../platform/telemetry/metrics-server';
import { endlessHeaders, slowRequest, trickledBody } from '../../support/slow-client';

async function status(url: string): Promise<number> {
  const res = await request(url);
  await res.body.text();
  return res.statusCode;
}

it.each([
  [
    'the health listener',
    async () => {
      const server = await startHealthServer({ host: '127.0.0.1', port: 0, checks: [] });
      return { url: server.url, path: '/readyz', stop: () => server.stop() };
    },
  ],
  [
    'the /metrics listener',
    async () => {
      const server = await startMetricsServer(
        { host: '127.0.0.1', port: 0, bindAddress: '127.0.0.1:0' },
        createProcessRegistry({ buildId: 'test', version: '0.0.0' }),
      );
      return { url: new URL(server.url).origin, path: '/metrics', stop: () => server.stop() };
    },
  ],
])(
  '%s drops slow clients within seconds while serving others',
  async (_name, start) => {
    const server = await start();
    // Node's own limits (headers 60 s, request 300 s) would keep these past their giving up at 20
    // s.
    const slow = [
      slowRequest(server.url, endlessHeaders(server.path), 200, 20_000),
      slowRequest(server.url, trickledBody(server.path), 200, 20_000),
    ];
    let dropped = 0;
    for (const s of slow) void s.closed.then(() => (dropped += 1));
    try {
      expect(await status(`${server.url}${server.path}`)).toBe(200);
      // Answered while both slow clients still held their connections.
      expect(dropped).toBe(0);
      for (const ms of await Promise.all(slow.map((s) => s.closed))) expect(ms).toBeLessThan(15_000);
      expect(slow[0]!.received().split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    } finally {
      for (const s of slow) s.stop();
      await server.stop();
    }
  },
  30_000,
);

/** haproxy of `npm run cluster` sends webhooks only to receivers whose /readyz answers 200. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { healthRoutes } from '../../../../platform/health/routes';
import { haproxyConfig } from '../../../../tools/scripts/cluster/haproxy';
import { freePort } from '../../../../tools/scripts/lib/free-port';

jest.setTimeout(30_000);

/** A receiver stand-in: /readyz by its `ready` flag, every other request answered with its name. */
function backend(name: string, state: { ready: boolean }): Promise<Server> {
  const routes = healthRoutes([
    { name: 'switch', check: async () => (state.ready ? undefined : Promise.reject(new Error('not ready'))) },
  ]);
  const server = createServer((req, res) => {
    if (!routes(req, res)) res.end(name);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('haproxy in front of the receivers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-haproxy-'));
  const a = { ready: true };
  const b = { ready: false };
  let servers: Server[] = [];
  let haproxy: ChildProcess | undefined;
  let port = 0;

  beforeAll(async () => {
    servers = [await backend('a', a), await backend('b', b)];
    port = await freePort();
    const backends = servers.map((s, i) => ({ name: i === 0 ? 'a' : 'b', port: (s.address() as AddressInfo).port }));
    writeFileSync(join(dir, 'haproxy.cfg'), haproxyConfig(port, backends));
    const binary = execFileSync('sh', ['-c', 'command -v haproxy || echo /usr/sbin/haproxy'], {
      encoding: 'utf8',
    }).trim();
    haproxy = spawn(binary, ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: 'ignore' });
  });
  afterAll(async () => {
    haproxy?.kill();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });

  async function answers(count: number): Promise<string[]> {
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await request(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body: '{}' });
      names.push(await res.body.text());
    }
    return names;
  }

  /** Waits until the health checks (every 500 ms, `rise 2`) have settled on the expected set. */
  async function settle(expected: string[]): Promise<string[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const names = [...new Set(await answers(6).catch(() => []))].sort();
      if (JSON.stringify(names) === JSON.stringify(expected) || Date.now() > deadline) return names;
      await sleep(250);
    }
  }

  it('sends nothing to a receiver that is not ready, and sends to it once it is', async () => {
    expect(await settle(['a'])).toEqual(['a']);
    b.ready = true;
    expect(await settle(['a', 'b'])).toEqual(['a', 'b']);
    a.ready = false;
    expect(await settle(['b'])).toEqual(['b']);
  });
});

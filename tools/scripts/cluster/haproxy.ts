/**
 * The load balancer in front of the webhook receivers: Debian's haproxy, the one URL the provider
 * calls back. The health check asks each receiver's `/readyz` (platform/health/routes.ts: Temporal
 * and the database answer), so a receiver that stops answering, or that has lost Temporal or
 * PostgreSQL, is taken out within a second; a request it refused the connection for is sent to
 * another receiver (`retry-on`): re-sending a webhook is safe because the receivers share one
 * dedupe.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../lib/free-port';
import { type ManagedProcess, type ProcessGroup, waitUntil } from './processes';

export interface RunningLoadBalancer {
  /** The provider's callback URL, e.g. `http://127.0.0.1:41234/webhooks`. */
  url: string;
  process: ManagedProcess;
}

export function haproxyConfig(port: number, backends: readonly { name: string; port: number }[]): string {
  return [
    'global',
    '  maxconn 1024',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 3',
    '  option redispatch',
    '  retry-on conn-failure empty-response response-timeout',
    'frontend webhooks',
    `  bind 127.0.0.1:${port}`,
    '  default_backend receivers',
    'backend receivers',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 500ms fall 1 rise 2`),
    '',
  ].join('\n');
}

function haproxyBinary(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy || ls /usr/sbin/haproxy'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('haproxy not found: apt-get install haproxy');
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * haproxy passing TCP through to `backends` (`127.0.0.1:<port>` each), TLS untouched end to end:
 * the balancer in front of Temporal frontends, whose callers present their certificates to the
 * server itself. Resolves with its `127.0.0.1:<port>` once it listens.
 */
export async function startTcpPassthrough(
  group: ProcessGroup,
  dir: string,
  name: string,
  backends: readonly string[],
): Promise<{ address: string; process: ManagedProcess }> {
  const port = await freePort();
  const configFile = join(dir, `haproxy-${name}.cfg`);
  writeFileSync(
    configFile,
    [
      'global',
      '  maxconn 1024',
      'defaults',
      '  mode tcp',
      '  timeout connect 2s',
      // gRPC streams (long polls) stay open for minutes.
      '  timeout client 10m',
      '  timeout server 10m',
      `frontend ${name}`,
      `  bind 127.0.0.1:${port}`,
      `  default_backend ${name}-servers`,
      `backend ${name}-servers`,
      '  balance roundrobin',
      ...backends.map((address, i) => `  server s${i + 1} ${address} check inter 500ms`),
      '',
    ].join('\n'),
  );
  const p = group.spawn({ name: `haproxy-${name}`, command: haproxyBinary(), args: ['-f', configFile, '-db'] });
  await waitUntil(`haproxy ${name} listening on ${port}`, () => listening(port), { process: p });
  return { address: `127.0.0.1:${port}`, process: p };
}

export async function startLoadBalancer(
  group: ProcessGroup,
  dir: string,
  backends: readonly { name: string; port: number }[],
  port?: number,
): Promise<RunningLoadBalancer> {
  port ??= await freePort();
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(port, backends));
  const p = group.spawn({ name: 'haproxy', command: haproxyBinary(), args: ['-f', configFile, '-db'] });
  await waitUntil(`haproxy listening on ${port}`, () => listening(port), { process: p });
  return { url: `http://127.0.0.1:${port}/webhooks`, process: p };
}

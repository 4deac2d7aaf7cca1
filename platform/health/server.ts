/**
 * A listener that serves only `/healthz` and `/readyz` (platform/health/routes.ts), for a process
 * that has no HTTP server of its own: the worker (`CARDFLOW_WORKER_HEALTH_ADDRESS`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serverLimits } from '../http/body';
import type { HealthCheck } from './checks';
import { healthRoutes } from './routes';

export interface HealthServer {
  /** `http://host:port` */
  url: string;
  stop(): Promise<void>;
}

/**
 * Parses `host:port` (`[::1]:port` for IPv6); a bare port means 127.0.0.1. Throws naming
 * `variable` and the rule.
 */
export function parseListenAddress(value: string, variable: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$|^(\d+)$/.exec(value.trim());
  const port = Number(match?.[3] ?? match?.[4]);
  if (!match || !Number.isInteger(port) || port > 65535)
    throw new Error(`${variable}="${value}" must be host:port (e.g. 0.0.0.0:9464) or a port`);
  return { host: match[1] ?? (match[2] || '127.0.0.1'), port };
}

export async function startHealthServer(opts: {
  host: string;
  port: number;
  checks: readonly HealthCheck[];
}): Promise<HealthServer> {
  const routes = healthRoutes(opts.checks);
  // A slow client (headers a byte at a time) is answered 408 and dropped within seconds, as by the
  // other servers.
  const server = createServer(serverLimits(), (req, res) => {
    if (!routes(req, res)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('this listener serves /healthz and /readyz only\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The `/metrics` endpoint of the processes that are not workers (webhook receiver, codec server):
 * a prom-client registry with the process's own metrics and Node's default ones (CPU, memory,
 * event-loop lag), served on its own listener, so scrapes never queue behind the traffic the
 * process serves and the metrics port can stay inside the operators' network. Workers serve theirs
 * from the SDK's Runtime instead (workers/telemetry.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { serverLimits } from '../http/body';
import { type BuildInfo, registerBuildInfo } from './build-info';
import type { MetricsAddress } from '../config/values/metrics-address';

/**
 * A registry holding Node's default process metrics (memory, CPU, event-loop lag) and
 * `cardflow_build_info`, for one process's own metrics to join.
 */
export function createProcessRegistry(build: BuildInfo): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerBuildInfo(registry, build);
  return registry;
}

export interface MetricsServer {
  /** `http://host:port/metrics`. */
  url: string;
  stop(): Promise<void>;
}

/** Serves `GET /metrics` from `registry` at `address`; resolves once it listens. */
export async function startMetricsServer(address: MetricsAddress, registry: Registry): Promise<MetricsServer> {
  // A slow client (headers a byte at a time) is answered 408 and dropped within seconds, as by the
  // other servers.
  const server = createServer(serverLimits(), (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('metrics are served at GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) =>
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`${error instanceof Error ? error.message : 'error'}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${host}:${bound.port}/metrics`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

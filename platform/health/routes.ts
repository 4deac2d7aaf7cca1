/**
 * `/healthz` and `/readyz` of a cardflow HTTP server (the webhook receiver, the codec server) and
 * of the worker's health listener (platform/health/server.ts):
 * - `GET /healthz`: the process is alive and its event loop answers (200), nothing else checked;
 *   for a restart policy.
 * - `GET /readyz`: every readiness check passes (200) or not (503), with one line per check as
 *   JSON; for a load balancer or the compose health check, which send traffic only to a ready
 *   replica. Both answer without authentication: they name what is checked, never a secret or a
 *   payload.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HealthCheck, runChecks } from './checks';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/**
 * Handles the request when it is a health route (returns true); leaves every other request alone.
 */
export type HealthRoutes = (req: IncomingMessage, res: ServerResponse) => boolean;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(`${JSON.stringify(body)}\n`);
}

export function healthRoutes(checks: readonly HealthCheck[], opts: { timeoutMs?: number } = {}): HealthRoutes {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://health').pathname;
    if (path !== HEALTH_PATH && path !== READY_PATH) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return true;
    }
    if (path === HEALTH_PATH) {
      json(res, 200, { status: 'alive' });
      return true;
    }
    runChecks(checks, opts.timeoutMs).then(
      (readiness) =>
        json(res, readiness.ready ? 200 : 503, { status: readiness.ready ? 'ready' : 'not ready', ...readiness }),
      (error: unknown) => json(res, 503, { status: 'not ready', reason: String(error) }),
    );
    return true;
  };
}

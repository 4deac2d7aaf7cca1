/**
 * Shutting a server down behind a load balancer without refusing traffic it still sends: first
 * fail readiness (the `draining` check), then keep accepting for a drain interval while the
 * balancer's health checks notice and send elsewhere, and only then stop accepting connections.
 * Stopping at once would refuse the requests the balancer routes before its next check.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { HealthCheck } from './checks';

export interface Drain {
  /** A readiness check that passes until {@link Drain.drainThenStop} is called. */
  check: HealthCheck;
  /**
   * Fails readiness at once, waits `drainMs` (still serving), then runs `stop`. A second call
   * returns the first one's promise.
   */
  drainThenStop(stop: () => Promise<void>): Promise<void>;
  readonly draining: boolean;
}

export function createDrain(drainMs: number, wait: (ms: number) => Promise<unknown> = sleep): Drain {
  let stopping: Promise<void> | undefined;
  return {
    check: {
      name: 'draining',
      check: async () => {
        if (stopping) throw new Error('shutting down: finishing requests before closing');
        return undefined;
      },
    },
    drainThenStop(stop) {
      stopping ??= wait(drainMs).then(stop);
      return stopping;
    },
    get draining() {
      return stopping !== undefined;
    },
  };
}

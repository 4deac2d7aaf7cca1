/**
 * Readiness checks of a cardflow server process (`/readyz`, platform/health/routes.ts): each names
 * what it checks, runs with a time limit, and reports ok or the reason it is not, never a secret.
 */
import type { Pool } from 'pg';

export interface HealthCheck {
  /** What is checked, e.g. `temporal`, `database`, `codec-keys`. */
  name: string;
  /** Resolves with a short detail when ready; rejects (or times out) when not. */
  check: () => Promise<string | undefined>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  /** The detail of a passing check, or why it failed. */
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: CheckResult[];
}

/**
 * A check that has not answered in this long counts as failed (the orchestrator's probe waits
 * longer).
 */
export const DEFAULT_CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs every check at once; ready when all pass. */
export async function runChecks(
  checks: readonly HealthCheck[],
  timeoutMs: number = DEFAULT_CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async ({ name, check }): Promise<CheckResult> => {
      try {
        const detail = await withTimeout(check(), timeoutMs, name);
        return detail === undefined ? { name, ok: true } : { name, ok: true, detail };
      } catch (error) {
        return { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  return { ready: results.every((r) => r.ok), checks: results };
}

/** Temporal answers: the frontend's gRPC health service (a client or a worker connection). */
export function temporalCheck(connection: {
  healthService: { check(request: object): PromiseLike<{ status?: number | null }> };
}): HealthCheck {
  const SERVING = 1;
  return {
    name: 'temporal',
    check: async () => {
      const { status } = await connection.healthService.check({});
      if (status !== SERVING) throw new Error(`the Temporal frontend answers but is not serving (status ${status})`);
      return undefined;
    },
  };
}

/** cardflow's database answers a query. */
export function databaseCheck(pool: Pool): HealthCheck {
  return {
    name: 'database',
    check: async () => {
      await pool.query('SELECT 1');
      return undefined;
    },
  };
}

/**
 * Keys the process loaded at start (it does not start without them), reported by id or kind so an
 * operator sees which ones a replica holds; never key material.
 */
export function keysCheck(name: string, describe: () => string): HealthCheck {
  return { name, check: async () => describe() };
}

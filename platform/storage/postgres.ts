/**
 * cardflow's own PostgreSQL (production: `CARDFLOW_DATABASE_URL`), shared by every replica of the
 * worker and the webhook receiver: the webhook delivery log and the work-order supporting files.
 * Not Temporal's database; it may be the same server.
 *
 * The set-up job applies the schema's versions (schema-versions.ts); each store only checks, at
 * open, that the schema is as new as its build.
 */
import { Pool } from 'pg';

/**
 * A connection pool that survives a database restart: a connection the server closed is dropped
 * (its `error` would otherwise crash the process) and the next query opens a fresh one.
 */
export function openPool(url: string, opts: { max?: number; onError?: (error: Error) => void } = {}): Pool {
  // allowExitOnIdle: idle connections never keep a process alive that has finished its work.
  const pool = new Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  });
  pool.on('error', (error) => opts.onError?.(error));
  return pool;
}

/**
 * cardflow's own PostgreSQL (production: `CARDFLOW_DATABASE_URL`), shared by every replica of the
 * worker and the webhook receiver: the webhook delivery log and the work-order supporting files.
 * Not Temporal's database; it may be the same server.
 *
 * Each store creates its tables at start (`migrate`): idempotent statements run under a
 * transaction-scoped advisory lock, so replicas starting together never race on the catalog.
 */
import { Pool, type PoolClient } from 'pg';

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

/** One lock id per schema, so two stores on one database do not wait for each other. */
function lockId(schema: string): number {
  let hash = 0;
  for (const ch of `cardflow:${schema}`) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return hash;
}

/** Runs idempotent DDL `statements` for `schema` once at a time across all replicas. */
export async function migrate(pool: Pool, schema: string, statements: readonly string[]): Promise<void> {
  const client: PoolClient = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [lockId(schema)]);
    for (const statement of statements) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

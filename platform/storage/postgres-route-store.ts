/**
 * Routes in PostgreSQL (`CARDFLOW_DATABASE_URL`), shared by every worker and every receiver
 * replica: one row per key and workflow id. A worker's insert commits before its provider call, so
 * any receiver that gets the event reads the route (platform/storage/route-store.ts says what a
 * route is). Rows of closed workflows are marked closed by the receiver that finds them closed, and
 * rows not recorded again within the retention are deleted at start.
 */
import type { Pool } from 'pg';
import { openPool } from './postgres';
import { requireSchema } from './schema-versions';
import type { RouteOwner, RouteStore } from './route-store';

/**
 * Far longer than any workflow waits for an event after its last call (a funding deadline, a
 * review).
 */
export const DEFAULT_ROUTE_RETENTION_MS = 180 * 24 * 3600 * 1000;

export interface PostgresRouteStoreOptions {
  /** A pool to use (not closed by the store); default one of its own on the URL. */
  pool?: Pool;
  retentionMs?: number;
}

/** Opens the store; its schema is checked (and expired rows deleted) before the first query. */
export function createPostgresRouteStore(url: string, opts: PostgresRouteStoreOptions = {}): RouteStore {
  const pool = opts.pool ?? openPool(url, { max: 4 });
  let ready: Promise<void> | undefined;
  const prepared = () =>
    (ready ??= (async () => {
      await requireSchema(pool);
      await pool.query(`DELETE FROM cardflow_routes WHERE recorded_at < now() - $1 * interval '1 millisecond'`, [
        opts.retentionMs ?? DEFAULT_ROUTE_RETENTION_MS,
      ]);
    })().catch((error: unknown) => {
      ready = undefined; // the next call tries again (the database may be starting)
      throw error;
    }));
  return {
    async record(key, workflowId) {
      await prepared();
      await pool.query(
        `INSERT INTO cardflow_routes (route_key, workflow_id, recorded_at) VALUES ($1, $2, clock_timestamp())
         ON CONFLICT (route_key, workflow_id) DO UPDATE SET recorded_at = EXCLUDED.recorded_at, closed = false`,
        [key, workflowId],
      );
    },
    async owners(key): Promise<RouteOwner[]> {
      await prepared();
      // recorded_at as text: the exact value markClosed compares, without a round trip through Date
      // (milliseconds).
      const { rows } = await pool.query<{ workflow_id: string; recorded_at: string; closed: boolean }>(
        'SELECT workflow_id, recorded_at::text AS recorded_at, closed FROM cardflow_routes WHERE route_key = $1 ORDER BY recorded_at',
        [key],
      );
      return rows.map((r) => ({ workflowId: r.workflow_id, recordedAt: r.recorded_at, closed: r.closed }));
    },
    async markClosed(key, owner) {
      await prepared();
      await pool.query(
        'UPDATE cardflow_routes SET closed = true WHERE route_key = $1 AND workflow_id = $2 AND recorded_at::text = $3',
        [key, owner.workflowId, owner.recordedAt],
      );
    },
    async close() {
      if (!opts.pool) await pool.end();
    },
  };
}

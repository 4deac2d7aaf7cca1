/**
 * Reference data in PostgreSQL (`CARDFLOW_DATABASE_URL`), shared by every worker and backend
 * replica: one row per list, replaced whole (platform/storage/reference-store.ts says what is
 * kept).
 */
import type { Pool } from 'pg';
import { openPool } from './postgres';
import { requireSchema } from './schema-versions';
import type { ReferenceStore } from './reference-store';

/**
 * Opens the store; its schema version is checked before the first query. `pool` is not closed by
 * it.
 */
export function createPostgresReferenceStore(url: string, opts: { pool?: Pool } = {}): ReferenceStore {
  const pool = opts.pool ?? openPool(url, { max: 2 });
  let ready: Promise<void> | undefined;
  const prepared = () =>
    (ready ??= requireSchema(pool).catch((error: unknown) => {
      ready = undefined; // the next call tries again (the database may be starting)
      throw error;
    }));
  return {
    async get(list) {
      await prepared();
      const { rows } = await pool.query<{ records: unknown[]; fetched_at: string }>(
        `SELECT records, (extract(epoch from fetched_at) * 1000)::bigint::text AS fetched_at
         FROM cardflow_reference_data WHERE list = $1`,
        [list],
      );
      const row = rows[0];
      return row ? { records: row.records, fetchedAt: Number(row.fetched_at) } : undefined;
    },
    async put(list, entry) {
      await prepared();
      await pool.query(
        `INSERT INTO cardflow_reference_data (list, records, fetched_at) VALUES ($1, $2, to_timestamp($3 / 1000.0))
         ON CONFLICT (list) DO UPDATE SET records = EXCLUDED.records, fetched_at = EXCLUDED.fetched_at`,
        [list, JSON.stringify(entry.records), entry.fetchedAt],
      );
    },
    async close() {
      if (!opts.pool) await pool.end();
    },
  };
}

/**
 * Undelivered notifications in cardflow's PostgreSQL (CARDFLOW_DATABASE_URL), where every worker
 * records them and the CLI lists and resends them: one row per event id.
 */
import type { Pool } from 'pg';
import { openPool } from '../storage/postgres';
import { requireSchema } from '../storage/schema-versions';
import type { UndeliveredEntry, UndeliveredStore } from './store';

export async function openPostgresUndeliveredStore(url: string, opts: { pool?: Pool } = {}): Promise<UndeliveredStore> {
  const pool = opts.pool ?? openPool(url, { max: 4 });
  await requireSchema(pool);
  const withResent = (row: { entry: UndeliveredEntry; resent_at: Date | null }): UndeliveredEntry => ({
    ...row.entry,
    ...(row.resent_at ? { resentAt: row.resent_at.toISOString() } : {}),
  });
  return {
    async record(entry) {
      const { resentAt: _dropped, ...fresh } = entry;
      await pool.query(
        `INSERT INTO cardflow_undelivered_notifications (id, entry, recorded_at) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET entry = EXCLUDED.entry, recorded_at = EXCLUDED.recorded_at, resent_at = NULL`,
        [entry.id, JSON.stringify(fresh), entry.recordedAt],
      );
    },
    async list(listOpts = {}) {
      const { rows } = await pool.query<{ entry: UndeliveredEntry; resent_at: Date | null }>(
        `SELECT entry, resent_at FROM cardflow_undelivered_notifications
         ${listOpts.pending ? 'WHERE resent_at IS NULL' : ''} ORDER BY recorded_at`,
      );
      return rows.map(withResent);
    },
    async get(id) {
      const { rows } = await pool.query<{ entry: UndeliveredEntry; resent_at: Date | null }>(
        'SELECT entry, resent_at FROM cardflow_undelivered_notifications WHERE id = $1',
        [id],
      );
      return rows[0] ? withResent(rows[0]) : undefined;
    },
    async markResent(id, at) {
      await pool.query('UPDATE cardflow_undelivered_notifications SET resent_at = $2 WHERE id = $1', [id, at]);
    },
    async close() {
      if (!opts.pool) await pool.end();
    },
  };
}

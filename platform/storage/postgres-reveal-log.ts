/**
 * Card-detail reveals in PostgreSQL (`CARDFLOW_DATABASE_URL`), shared by every backend replica
 * (platform/storage/reveal-log.ts says what is recorded). Each claim runs in one transaction under
 * an advisory lock of its card, so replicas deciding on one card take turns and the limit holds.
 */
import type { Pool } from 'pg';
import { openPool } from './postgres';
import { requireSchema } from './schema-versions';
import { decideReveal, type RevealLog, type RevealRecord } from './reveal-log';

interface Row {
  card_no: string;
  caller: string;
  reason: string;
  at: string;
}

const recordOf = (row: Row): RevealRecord => ({
  cardNo: row.card_no,
  caller: row.caller,
  reason: row.reason,
  at: Number(row.at),
});

/**
 * Opens the store; its schema version is checked before the first query. `pool` is not closed by
 * it.
 */
export function createPostgresRevealLog(url: string, opts: { pool?: Pool } = {}): RevealLog {
  const pool = opts.pool ?? openPool(url, { max: 4 });
  let ready: Promise<void> | undefined;
  const prepared = () =>
    (ready ??= requireSchema(pool).catch((error: unknown) => {
      ready = undefined; // the next call tries again (the database may be starting)
      throw error;
    }));
  const AT = `(extract(epoch from revealed_at) * 1000)::bigint::text AS at`;
  return {
    async claim(request, limit) {
      await prepared();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('cardflow:reveal:' || $1))`, [request.cardNo]);
        const now = Number(
          (
            await client.query<{ now: string }>(
              `SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint::text AS now`,
            )
          ).rows[0]!.now,
        );
        const { rows } = await client.query<Row>(
          `SELECT card_no, caller, reason, ${AT} FROM cardflow_card_reveals
           WHERE card_no = $1 AND revealed_at > to_timestamp($2 / 1000.0)`,
          [request.cardNo, now - limit.windowMs],
        );
        const refused = decideReveal(
          rows.map((r) => recordOf(r).at),
          limit,
          now,
        );
        if (refused) {
          await client.query('ROLLBACK');
          return refused;
        }
        await client.query(
          `INSERT INTO cardflow_card_reveals (card_no, caller, reason, revealed_at) VALUES ($1, $2, $3, to_timestamp($4 / 1000.0))`,
          [request.cardNo, request.caller, request.reason, now],
        );
        await client.query('COMMIT');
        return { allowed: true, record: { ...request, at: now } };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async list(cardNo) {
      await prepared();
      const { rows } = await pool.query<Row>(
        `SELECT card_no, caller, reason, ${AT} FROM cardflow_card_reveals WHERE card_no = $1 ORDER BY revealed_at, id`,
        [cardNo],
      );
      return rows.map(recordOf);
    },
    async close() {
      if (!opts.pool) await pool.end();
    },
  };
}

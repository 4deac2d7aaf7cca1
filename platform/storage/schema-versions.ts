/**
 * Schema versions of cardflow's own PostgreSQL (`CARDFLOW_DATABASE_URL`), with node-pg-migrate:
 * each change is one SQL file in `migrations/` (named `<13-digit ms timestamp>_<what>.sql`, as
 * `node-pg-migrate create` names them), applied in order by the set-up job (apply-migrations.ts)
 * and recorded by name in the database's `pgmigrations` table. The processes never change the
 * schema: at start each checks that the newest migration its build ships is recorded
 * ({@link requireSchema}) and refuses to start otherwise, naming it and the command that applies
 * it. A database a newer build migrated is accepted: changes are written expand then contract
 * (docs/operations.md), so the previous build keeps working on it during a rollout.
 */
import type { Pool } from 'pg';
import { openPool } from './postgres';

/** node-pg-migrate's own table of the applied migrations (its default name). */
export const MIGRATIONS_TABLE = 'pgmigrations';
/**
 * The newest migration of `migrations/`, which this build's queries need (a unit test keeps the
 * two equal). Migrations apply in order, so it being recorded means every older one is.
 */
export const REQUIRED_MIGRATION = '1796774400000_reference-data';
/** What applies the migrations, for the message of a process that finds one missing. */
const APPLY_COMMAND =
  'the database set-up job (compose: the database-setup service; `node dist/tools/deploy/setup-database.js`)';

/** The schema is older than this build: the migration it needs is not recorded. */
export class SchemaOutOfDate extends Error {
  override readonly name = 'SchemaOutOfDate';
  constructor(readonly missing: string) {
    super(
      `cardflow's PostgreSQL schema is older than this build: migration ${missing} is not applied ` +
        `(table ${MIGRATIONS_TABLE}); apply it with ${APPLY_COMMAND}, then start this process again`,
    );
  }
}

/** The migrations recorded in the database (none when its table does not exist yet). */
export async function recordedMigrations(pool: Pool): Promise<Set<string>> {
  const table = await pool.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [MIGRATIONS_TABLE]);
  if (!table.rows[0]?.found) return new Set();
  const rows = await pool.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE}`);
  return new Set(rows.rows.map((r) => r.name));
}

const checked = new WeakMap<Pool, Promise<void>>();

/**
 * Resolves when the migration this build needs is recorded on `pool`'s database, else throws a
 * {@link SchemaOutOfDate}. Asked once per pool (a failed check is asked again next time).
 */
export function requireSchema(pool: Pool): Promise<void> {
  let check = checked.get(pool);
  if (!check) {
    check = recordedMigrations(pool).then((recorded) => {
      if (!recorded.has(REQUIRED_MIGRATION)) throw new SchemaOutOfDate(REQUIRED_MIGRATION);
    });
    check.catch(() => checked.delete(pool));
    checked.set(pool, check);
  }
  return check;
}

/** {@link requireSchema} on a connection of its own, for a process about to start. */
export async function requireSchemaAt(databaseUrl: string): Promise<void> {
  const pool = openPool(databaseUrl, { max: 1 });
  try {
    await requireSchema(pool);
  } finally {
    await pool.end();
  }
}

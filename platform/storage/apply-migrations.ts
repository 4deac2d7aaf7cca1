/**
 * Applies the schema's migrations (`migrations/`, schema-versions.ts says how they are named and
 * checked) with node-pg-migrate: the set-up job's step, never a worker's or a receiver's.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { runner } from 'node-pg-migrate';
import { MIGRATIONS_TABLE } from './schema-versions';

/** The folder of the migrations; the build copies it beside the compiled code. */
export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

/** The migrations this build ships, by name (the file name less `.sql`), oldest first. */
export function shippedMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => file.slice(0, -'.sql'.length))
    .sort();
}

/**
 * Applies every migration not yet recorded, in one transaction, as the role of `databaseUrl` (which
 * then owns the tables), under node-pg-migrate's advisory lock (a second job at the same time is
 * refused, never applying one twice). Resolves with the names it applied.
 */
export async function applyMigrations(
  databaseUrl: string,
  log: (message: string) => void = () => {},
): Promise<string[]> {
  const applied = await runner({
    databaseUrl,
    dir: MIGRATIONS_DIR,
    migrationsTable: MIGRATIONS_TABLE,
    direction: 'up',
    checkOrder: true,
    singleTransaction: true,
    log,
  });
  return applied.map((m) => m.name);
}

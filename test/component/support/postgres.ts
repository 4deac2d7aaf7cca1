/**
 * A throwaway PostgreSQL for one test file (the one `npm run cluster` starts,
 * tools/scripts/cluster/): Debian's server on a free loopback port in a temp folder, stopped and
 * removed by `stop()`. Each call of `database()` creates a fresh database, so tests never see each
 * other's rows, with the schema's migrations applied as the set-up job applies them (or none, for a
 * test of them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { applyMigrations } from '../../../platform/storage/apply-migrations';
import { type RunningPostgres, startPostgres } from '../../../tools/scripts/cluster/postgres';
import { ProcessGroup } from '../../../tools/scripts/cluster/processes';

export interface TestPostgres {
  server: RunningPostgres;
  /** A new database, migrated to this build's schema unless `empty`; resolves with its URL. */
  database(opts?: { empty?: boolean }): Promise<string>;
  stop(): Promise<void>;
}

let databases = 0;

export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-pg-test-'));
  const group = new ProcessGroup(dir);
  const server = await startPostgres(group, join(dir, 'pg'));
  return {
    server,
    async database(opts = {}) {
      const name = `test_${process.pid}_${++databases}`;
      const admin = new Client({ connectionString: server.url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const url = server.url(name);
      if (!opts.empty) await applyMigrations(url);
      return url;
    },
    async stop() {
      await group.stopAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

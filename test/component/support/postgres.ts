/**
 * A throwaway PostgreSQL for one test file (the one `npm run cluster` starts, tools/scripts/cluster/):
 * Debian's server on a free loopback port in a temp folder, stopped and removed by `stop()`.
 * Each call of `database()` creates a fresh database, so tests never see each other's rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { type RunningPostgres, startPostgres } from '../../../tools/scripts/cluster/postgres';
import { ProcessGroup } from '../../../tools/scripts/cluster/processes';

export interface TestPostgres {
  server: RunningPostgres;
  /** A new empty database; resolves with its URL. */
  database(): Promise<string>;
  stop(): Promise<void>;
}

let databases = 0;

export async function startTestPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-pg-test-'));
  const group = new ProcessGroup(dir);
  const server = await startPostgres(group, join(dir, 'pg'));
  return {
    server,
    async database() {
      const name = `test_${process.pid}_${++databases}`;
      const admin = new Client({ connectionString: server.url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return server.url(name);
    },
    async stop() {
      await group.stopAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Schema versions of cardflow's PostgreSQL: a database the previous builds' stores made (their
 * own CREATE … IF NOT EXISTS at start, kept as a fixture) is adopted in place by the first
 * migration with every row kept; until it is, each store and the worker refuse it, naming the
 * missing migration and what applies it; a database a newer build migrated is accepted.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import type { Pool } from 'pg';
import { openPostgresUndeliveredStore } from '../../../../platform/notifications/postgres-store';
import { applyMigrations, shippedMigrations } from '../../../../platform/storage/apply-migrations';
import { openPool } from '../../../../platform/storage/postgres';
import { createPostgresRouteStore } from '../../../../platform/storage/postgres-route-store';
import { MIGRATIONS_TABLE, REQUIRED_MIGRATION, SchemaOutOfDate } from '../../../../platform/storage/schema-versions';
import { openPostgresWebhookStore } from '../../../../webhooks/postgres-store';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';
import { createPreviousSchema } from '../../support/previous-schema';
import { ensureSandboxKeys, KEY_FILES } from '../../../../tools/sandbox/keys';

const ROOT = resolve(__dirname, '../../../..');
const TABLES = [
  'cardflow_routes',
  'cardflow_files',
  'cardflow_file_uploads',
  'cardflow_undelivered_notifications',
  'cardflow_webhook_deliveries',
];

let pg: TestPostgres;
const pools: Pool[] = [];
beforeAll(async () => {
  pg = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  for (const p of pools) await p.end();
  await pg?.stop();
});

function poolOn(url: string): Pool {
  const pool = openPool(url, { max: 2 });
  pools.push(pool);
  return pool;
}

/** Every row of every table, as text, for comparing before and after. */
async function rows(pool: Pool): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES)
    out[table] = (await pool.query(`SELECT t::text AS row FROM ${table} t ORDER BY 1`)).rows.map((r) => r.row);
  return out;
}

it('adopts the previous builds’ tables in place, rows kept; the stores refuse them until then', async () => {
  const url = await pg.database({ empty: true });
  const pool = poolOn(url);
  await createPreviousSchema(pool);
  await pool.query(
    `INSERT INTO cardflow_routes (route_key, workflow_id, recorded_at) VALUES ('order:CF1', 'w1', now())`,
  );
  await pool.query(`INSERT INTO cardflow_files (ref, content_type, data) VALUES ('sha256:ab', 'image/png', '\\x0102')`);
  await pool.query(
    `INSERT INTO cardflow_file_uploads (scope, ref, file_id) VALUES ('m1', 'sha256:ab', '1989887271659823105')`,
  );
  await pool.query(
    `INSERT INTO cardflow_undelivered_notifications (id, entry, recorded_at) VALUES ('evt_1', $1, now())`,
    [
      JSON.stringify({
        id: 'evt_1',
        type: 'transfer.completed',
        workflowId: 'transfer-1',
        recordedAt: '2026-11-28T12:00:00.000Z',
        reason: 'answered 500',
        body: '{"id":"evt_1"}',
      }),
    ],
  );
  await pool.query(
    `INSERT INTO cardflow_webhook_deliveries (request_id, entry, recorded_at) VALUES ('r1', '{}', now())`,
  );
  const before = await rows(pool);

  // The previous build's tables, no version recorded: refused, naming the migration.
  await expect(openPostgresUndeliveredStore(url, { pool: poolOn(url) })).rejects.toThrow(SchemaOutOfDate);
  await expect(openPostgresWebhookStore(url, { pool: poolOn(url) })).rejects.toThrow(
    `migration ${REQUIRED_MIGRATION} is not applied`,
  );

  expect(await applyMigrations(url)).toEqual(shippedMigrations());
  expect(await rows(pool)).toEqual(before);
  expect((await pool.query(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`)).rows.map((r) => r.name)).toEqual(
    shippedMigrations(),
  );
  // Applied again: nothing to do.
  expect(await applyMigrations(url)).toEqual([]);

  // The stores of this build read the kept rows.
  const routes = createPostgresRouteStore(url, { pool: poolOn(url) });
  expect((await routes.owners('order:CF1')).map((o) => o.workflowId)).toEqual(['w1']);
  const undelivered = await openPostgresUndeliveredStore(url, { pool: poolOn(url) });
  expect((await undelivered.list()).map((e) => e.id)).toEqual(['evt_1']);
});

it('accepts a schema a newer build migrated further (expand: the previous build keeps working)', async () => {
  const url = await pg.database();
  const pool = poolOn(url);
  // What a later expand migration looks like: an added nullable column and a new table.
  await pool.query(`ALTER TABLE cardflow_routes ADD COLUMN IF NOT EXISTS tenant text`);
  await pool.query(`CREATE TABLE cardflow_later (id text PRIMARY KEY)`);
  await pool.query(`INSERT INTO ${MIGRATIONS_TABLE} (name, run_on) VALUES ('9999999999999_later', now())`);
  const routes = createPostgresRouteStore(url, { pool: poolOn(url) });
  await routes.record('order:CF2', 'w2');
  expect((await routes.owners('order:CF2')).map((o) => o.workflowId)).toEqual(['w2']);
});

it('a worker refuses to start on an older schema, naming the migration and the set-up job', async () => {
  const url = await pg.database({ empty: true });
  await createPreviousSchema(poolOn(url));
  const keys = mkdtempSync(join(tmpdir(), 'cardflow-schema-keys-'));
  ensureSandboxKeys(keys);
  const result = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['workers/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: tmpdir(),
      // A provider nothing listens on: the worker stops before any call.
      CARDFLOW_PROVIDER_BASE_URL: 'http://127.0.0.1:9',
      CARDFLOW_PROVIDER_API_KEY_FILE: join(keys, KEY_FILES.apiKey),
      CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: join(keys, KEY_FILES.merchantPrivate),
      CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: join(keys, KEY_FILES.platformPublic),
      CARDFLOW_DATABASE_URL: url,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr + result.stdout).toContain(
    `cardflow's PostgreSQL schema is older than this build: migration ${REQUIRED_MIGRATION} is not applied`,
  );
  expect(result.stderr + result.stdout).toContain('database-setup');
  rmSync(keys, { recursive: true, force: true });
  expect(result.status).toBe(1);
}, 90_000);

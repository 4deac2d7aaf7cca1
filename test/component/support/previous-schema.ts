/**
 * The tables as the builds before schema versions made them: each store ran its own
 * `CREATE … IF NOT EXISTS` statements at start, under a transaction-scoped advisory lock. Kept
 * word for word, so a test can make a database as such a build left it and upgrade it.
 */
import type { Pool } from 'pg';

const PREVIOUS_SCHEMAS: Record<string, readonly string[]> = {
  routes: [
    `CREATE TABLE IF NOT EXISTS cardflow_routes (
     route_key text NOT NULL,
     workflow_id text NOT NULL,
     recorded_at timestamptz NOT NULL,
     closed boolean NOT NULL DEFAULT false,
     PRIMARY KEY (route_key, workflow_id)
   )`,
    `CREATE INDEX IF NOT EXISTS cardflow_routes_recorded_at ON cardflow_routes (recorded_at)`,
  ],
  files: [
    `CREATE TABLE IF NOT EXISTS cardflow_files (
     ref text PRIMARY KEY,
     content_type text NOT NULL,
     data bytea NOT NULL,
     stored_at timestamptz NOT NULL DEFAULT now()
   )`,
    `CREATE TABLE IF NOT EXISTS cardflow_file_uploads (
     scope text NOT NULL,
     ref text NOT NULL,
     file_id text NOT NULL,
     recorded_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (scope, ref)
   )`,
  ],
  notifications: [
    `CREATE TABLE IF NOT EXISTS cardflow_undelivered_notifications (
     id text PRIMARY KEY,
     entry jsonb NOT NULL,
     recorded_at timestamptz NOT NULL,
     resent_at timestamptz
   )`,
  ],
  webhooks: [
    `CREATE TABLE IF NOT EXISTS cardflow_webhook_deliveries (
     request_id text PRIMARY KEY,
     claimed_by text,
     claimed_until timestamptz,
     entry jsonb,
     recorded_at timestamptz
   )`,
    `CREATE INDEX IF NOT EXISTS cardflow_webhook_deliveries_recorded_at ON cardflow_webhook_deliveries (recorded_at)`,
  ],
};

function lockId(schema: string): number {
  let hash = 0;
  for (const ch of `cardflow:${schema}`) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return hash;
}

/** The previous builds' `migrate(pool, schema, statements)`, as each store called it. */
async function migrate(pool: Pool, schema: string, statements: readonly string[]): Promise<void> {
  const client = await pool.connect();
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

/** Creates every table as the previous builds' stores did at their start. */
export async function createPreviousSchema(pool: Pool): Promise<void> {
  for (const [schema, statements] of Object.entries(PREVIOUS_SCHEMAS)) await migrate(pool, schema, statements);
}

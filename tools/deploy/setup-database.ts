/**
 * One-shot set-up of cardflow's own database (compose's `database-setup`, `npm run cluster`, CI),
 * run as PostgreSQL's administrator after the Temporal schema job; idempotent. It makes the role
 * and database `CARDFLOW_DATABASE_URL` names, applies the migrations as that role before any worker
 * or receiver starts (platform/storage/schema-versions.ts), and grants nothing more: no superuser,
 * no new databases or roles, and CONNECT revoked from PUBLIC on every database but its own. Tables
 * an earlier stack created as the administrator are handed to the role.
 */
import { Client } from 'pg';
import { exitCodeFor, failureMessage, loadConfiguration } from '../../platform/config/startup';
import { readConfiguration } from '../../platform/config/schema';
import { processEnv } from '../../platform/config/process-env';
import { createLogger } from '../../platform/logging/logger';
import { applyMigrations } from '../../platform/storage/apply-migrations';

const logger = createLogger({ base: { service: 'database-setup' } });

/**
 * Temporal's databases (tools/deploy/temporal-schema.sh) and the administrator's own: closed to
 * every role but the administrator.
 */
const CLOSED_DATABASES = ['temporal', 'temporal_visibility', 'postgres'];

/** Role and database names this job will put into SQL: plain lower-case identifiers only. */
const IDENTIFIER_RE = /^[a-z_][a-z0-9_]{0,62}$/;

export interface DatabaseTarget {
  role: string;
  password: string;
  database: string;
}

/**
 * The role, password and database of `CARDFLOW_DATABASE_URL` (read from `from`); throws naming the
 * rule a part breaks.
 */
export function targetOf(databaseUrl: string, from = 'CARDFLOW_DATABASE_URL'): DatabaseTarget {
  const url = new URL(databaseUrl);
  const role = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  for (const [what, value] of [
    ['user', role],
    ['database', database],
  ] as const) {
    if (!IDENTIFIER_RE.test(value))
      throw new Error(`${from}: its ${what} must be lower-case letters, digits and _ (got "${value}")`);
  }
  if (password.length < 16) throw new Error(`${from}: its password must have 16 characters or more`);
  return { role, password, database };
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates or updates the role and its database; hands it the tables in the database's public
 * schema; then applies the schema's migrations as the role, on the administrator's host. Resolves
 * with the names of the migrations it applied.
 */
export async function setUpDatabase(
  adminUrl: string,
  target: DatabaseTarget,
  log: (message: string) => void = () => {},
): Promise<string[]> {
  await withClient(adminUrl, async (admin) => {
    const role = admin.escapeIdentifier(target.role);
    const db = admin.escapeIdentifier(target.database);
    const password = admin.escapeLiteral(target.password);
    const me = await admin.query<{ name: string }>('SELECT current_user AS name');
    if (me.rows[0]?.name === target.role)
      throw new Error(
        `CARDFLOW_DATABASE_URL: its user ${target.role} is the administrator this job connects as; give cardflow a role of its own`,
      );
    const rights = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';
    const existing = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [target.role]);
    await admin.query(`${existing.rowCount ? 'ALTER' : 'CREATE'} ROLE ${role} WITH ${rights} PASSWORD ${password}`);
    const hasDb = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [target.database]);
    if (!hasDb.rowCount) await admin.query(`CREATE DATABASE ${db} OWNER ${role}`);
    else await admin.query(`ALTER DATABASE ${db} OWNER TO ${role}`);
    await admin.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`);
    await admin.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${db} TO ${role}`);
    const closed = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = ANY($1)', [
      CLOSED_DATABASES,
    ]);
    for (const { datname } of closed.rows)
      await admin.query(`REVOKE CONNECT ON DATABASE ${admin.escapeIdentifier(datname)} FROM PUBLIC`);
  });
  const inDatabase = new URL(adminUrl);
  inDatabase.pathname = `/${encodeURIComponent(target.database)}`;
  await withClient(inDatabase.toString(), async (admin) => {
    const role = admin.escapeIdentifier(target.role);
    // PostgreSQL 15 and later: the public schema belongs to the database owner; earlier ones
    // let every role create in it, which this takes back.
    await admin.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    await admin.query(`GRANT USAGE, CREATE ON SCHEMA public TO ${role}`);
    const foreign = await admin.query<{ kind: string; name: string }>(
      `SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END AS kind, c.relname AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'S') AND pg_get_userbyid(c.relowner) <> $1`,
      [target.role],
    );
    for (const { kind, name } of foreign.rows)
      await admin.query(`ALTER ${kind} public.${admin.escapeIdentifier(name)} OWNER TO ${role}`);
  });
  const asRole = new URL(inDatabase);
  asRole.username = encodeURIComponent(target.role);
  asRole.password = encodeURIComponent(target.password);
  return applyMigrations(asRole.toString(), log);
}

async function main(): Promise<void> {
  const { adminUrl, target } = loadConfiguration(() => {
    const config = readConfiguration(processEnv(), { withoutInterlock: true });
    const admin = config.CARDFLOW_DATABASE_ADMIN_URL;
    const app = config.CARDFLOW_DATABASE_URL;
    if (!admin) throw new Error('CARDFLOW_DATABASE_ADMIN_URL: required by the database set-up');
    if (!app) throw new Error('CARDFLOW_DATABASE_URL: required by the database set-up');
    return { adminUrl: admin.value, target: targetOf(app.value, app.from) };
  });
  const applied = await setUpDatabase(adminUrl, target, (message) => logger.info(message));
  logger.info('database ready', { role: target.role, database: target.database, migrationsApplied: applied });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    logger.error('database set-up failed', { reason: failureMessage(error) });
    process.exitCode = exitCodeFor(error);
  });
}

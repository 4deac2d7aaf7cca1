/**
 * The database set-up job (tools/deploy/setup-database.ts) on a real PostgreSQL: the role it
 * creates runs cardflow's stores in its own database, and can do nothing else (no other database,
 * no superuser rights); a second run changes nothing but hands over tables an earlier stack made as
 * the administrator; the schema's migrations are applied as the role, once.
 */
import { Client } from 'pg';
import { setUpDatabase, targetOf } from '../../../../tools/deploy/setup-database';
import { createPostgresFileStore } from '../../../../platform/storage/postgres-file-store';
import { shippedMigrations } from '../../../../platform/storage/apply-migrations';
import { type TestPostgres, startTestPostgres } from '../../support/postgres';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startTestPostgres();
  const admin = new Client({ connectionString: pg.server.url('postgres') });
  await admin.connect();
  // Temporal's databases, as tools/deploy/temporal-schema.sh leaves them.
  for (const db of ['temporal', 'temporal_visibility']) await admin.query(`CREATE DATABASE ${db}`);
  // An earlier stack's table in cardflow's database, made by the administrator.
  await admin.query('CREATE DATABASE cardflow');
  await admin.end();
  const earlier = new Client({ connectionString: pg.server.url('cardflow') });
  await earlier.connect();
  await earlier.query('CREATE TABLE earlier_rows (id int)');
  await earlier.end();
}, 60_000);
afterAll(async () => pg?.stop());

const PASSWORD = 'a-long-enough-password-for-the-role';
// Not `cardflow`: that is this throwaway server's administrator.
const roleUrl = (database: string, role = 'cardflow_app') =>
  `postgres://${role}:${PASSWORD}@${pg.server.host}:${pg.server.port}/${database}`;

async function asRole<T>(database: string, work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: roleUrl(database) });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

it('refuses a URL naming the administrator itself, before changing anything', async () => {
  await expect(setUpDatabase(pg.server.url('postgres'), targetOf(roleUrl('cardflow', pg.server.user)))).rejects.toThrow(
    /is the administrator this job connects as/,
  );
});

it('refuses a URL whose user, database or password breaks its rule, naming the variable', () => {
  expect(() => targetOf('postgres://Card-Flow:x@h/cardflow')).toThrow(/CARDFLOW_DATABASE_URL: its user must be/);
  expect(() => targetOf(`postgres://cardflow:${PASSWORD}@h/card;flow`, 'CARDFLOW_DATABASE_URL_FILE')).toThrow(
    /CARDFLOW_DATABASE_URL_FILE: its database must be/,
  );
  expect(() => targetOf('postgres://cardflow:short@h/cardflow')).toThrow(/password must have 16 characters/);
});

it("makes a role that runs cardflow's stores in its own database and reaches nothing else; a second run is harmless", async () => {
  const target = targetOf(roleUrl('cardflow'));
  expect(await setUpDatabase(pg.server.url('postgres'), target)).toEqual(shippedMigrations());
  expect(await setUpDatabase(pg.server.url('postgres'), target)).toEqual([]);

  // The migrations made the tables as the role; the stores work as the role.
  const owners = await asRole('cardflow', (c) =>
    c.query<{ owner: string }>(`SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'public'`),
  );
  expect(owners.rows).toEqual([{ owner: 'cardflow_app' }]);
  const files = createPostgresFileStore(roleUrl('cardflow'));
  try {
    const { ref } = await files.put(Buffer.from('%PDF-1.4\n'), 'note.pdf');
    expect((await files.get(ref))?.contentType).toBe('application/pdf');
  } finally {
    await files.close();
  }
  // The table the administrator once made is the role's now.
  await asRole('cardflow', (c) => c.query('INSERT INTO earlier_rows VALUES (1)'));
  const rights = await asRole('cardflow', (c) =>
    c.query<{ rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean; rolreplication: boolean }>(
      'SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication FROM pg_roles WHERE rolname = current_user',
    ),
  );
  expect(rights.rows[0]).toEqual({ rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolreplication: false });
  // Temporal's databases and any other are closed to it.
  for (const other of ['temporal', 'temporal_visibility', 'postgres']) {
    await expect(asRole(other, (c) => c.query('SELECT 1'))).rejects.toThrow(/permission denied for database/);
  }
});

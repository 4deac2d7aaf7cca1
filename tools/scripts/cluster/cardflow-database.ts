/**
 * cardflow's own database on the cluster's PostgreSQL, set up as the shipped stack sets it up
 * (tools/deploy/setup-database.ts): a role of its own with only the rights it needs, owning the
 * database its stores use. The processes of the topology connect as that role, never as the
 * administrator the Temporal server uses.
 */
import { setUpDatabase } from '../../deploy/setup-database';
import type { RunningPostgres } from './postgres';

/** cardflow's own database (its stores), beside Temporal's two. */
export const CARDFLOW_DATABASE = 'cardflow';

/** Not `cardflow`: that is the throwaway server's administrator here. */
const ROLE = 'cardflow_app';
/** A throwaway server on loopback: a fixed password, as its administrator's is. */
const PASSWORD = 'cardflow-app-local-password';

/**
 * Sets the role and database up (after the Temporal schema job); the URL the cardflow processes
 * use.
 */
export async function setUpCardflowDatabase(pg: RunningPostgres): Promise<string> {
  await setUpDatabase(pg.url('postgres'), { role: ROLE, password: PASSWORD, database: CARDFLOW_DATABASE });
  return `postgres://${ROLE}:${PASSWORD}@${pg.host}:${pg.port}/${CARDFLOW_DATABASE}`;
}

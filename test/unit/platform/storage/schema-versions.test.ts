/**
 * The migration a build requires is the newest one it ships: a new migration that forgot to move
 * REQUIRED_MIGRATION would let the previous schema pass the start check of a build that needs it.
 */
import { shippedMigrations } from '../../../../platform/storage/apply-migrations';
import { REQUIRED_MIGRATION } from '../../../../platform/storage/schema-versions';

it('requires the newest migration of platform/storage/migrations/', () => {
  const shipped = shippedMigrations();
  expect(shipped.length).toBeGreaterThan(0);
  expect(shipped.at(-1)).toBe(REQUIRED_MIGRATION);
});

it('names each migration <13-digit ms timestamp>_<what>, as node-pg-migrate orders them', () => {
  for (const name of shippedMigrations()) expect(name).toMatch(/^\d{13}_[a-z0-9-]+$/);
});

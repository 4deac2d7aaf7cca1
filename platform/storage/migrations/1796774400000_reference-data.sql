-- The provider's reference data (platform/storage/postgres-reference-store.ts): one row per list
-- (regions, cities, mobile area codes, occupations), replaced whole by each refresh. An expand
-- step: no build before it reads or writes the table.
-- Up Migration
CREATE TABLE IF NOT EXISTS cardflow_reference_data (
  list text PRIMARY KEY,
  records jsonb NOT NULL,
  fetched_at timestamptz NOT NULL
);

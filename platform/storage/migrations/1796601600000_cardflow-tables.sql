-- The tables every store created at start before schema versions were recorded, exactly as it
-- created them: on a database those stores made, this changes nothing and records the version.
-- No down migration: a schema moves forward only, expand then contract (docs/operations.md).
-- Up Migration
CREATE TABLE IF NOT EXISTS cardflow_routes (
  route_key text NOT NULL,
  workflow_id text NOT NULL,
  recorded_at timestamptz NOT NULL,
  closed boolean NOT NULL DEFAULT false,
  PRIMARY KEY (route_key, workflow_id)
);
CREATE INDEX IF NOT EXISTS cardflow_routes_recorded_at ON cardflow_routes (recorded_at);

CREATE TABLE IF NOT EXISTS cardflow_files (
  ref text PRIMARY KEY,
  content_type text NOT NULL,
  data bytea NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS cardflow_file_uploads (
  scope text NOT NULL,
  ref text NOT NULL,
  file_id text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, ref)
);

CREATE TABLE IF NOT EXISTS cardflow_undelivered_notifications (
  id text PRIMARY KEY,
  entry jsonb NOT NULL,
  recorded_at timestamptz NOT NULL,
  resent_at timestamptz
);

CREATE TABLE IF NOT EXISTS cardflow_webhook_deliveries (
  request_id text PRIMARY KEY,
  claimed_by text,
  claimed_until timestamptz,
  entry jsonb,
  recorded_at timestamptz
);
CREATE INDEX IF NOT EXISTS cardflow_webhook_deliveries_recorded_at ON cardflow_webhook_deliveries (recorded_at);

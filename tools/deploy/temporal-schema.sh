#!/bin/sh
# Creates or upgrades the Temporal schema on PostgreSQL, before the server starts: run by the
# `temporal-schema` service of docker-compose.yml in the official temporalio/admin-tools image,
# and by the cluster launcher of `npm run cluster` and CI (tools/scripts/cluster/) with the tool and the
# schemas that tools/scripts/temporal-server.sh builds. Each step is idempotent; update-schema applies
# only the versions not yet applied.
#
# Environment: POSTGRES_HOST, POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD_FILE,
# TEMPORAL_DB (default temporal), TEMPORAL_VISIBILITY_DB (default temporal_visibility),
# TEMPORAL_SQL_TOOL (default temporal-sql-tool, on the image's PATH),
# TEMPORAL_SCHEMA_DIR (default /etc/temporal/schema/postgresql/v12, the image's copy).
# cardflow's own database and role are the next job's (tools/deploy/setup-database.ts).
set -eu

: "${POSTGRES_HOST:?}" "${POSTGRES_USER:?}" "${POSTGRES_PASSWORD_FILE:?}"
# temporal-sql-tool reads the password from SQL_PASSWORD, so it never appears in `ps`.
SQL_PASSWORD="$(cat "$POSTGRES_PASSWORD_FILE")"
export SQL_PASSWORD
schema_root="${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}"
sql_tool="${TEMPORAL_SQL_TOOL:-temporal-sql-tool}"

sql() {
  "$sql_tool" --plugin postgres12 --ep "$POSTGRES_HOST" -p "${POSTGRES_PORT:-5432}" -u "$POSTGRES_USER" "$@"
}

setup() {
  db="$1"
  dir="$2"
  sql --db "$db" create-database 2>/dev/null || echo "temporal-schema: database $db already exists"
  sql --db "$db" setup-schema -v 0.0 2>/dev/null || echo "temporal-schema: $db has its schema version table"
  sql --db "$db" update-schema -d "$schema_root/$dir/versioned"
}

setup "${TEMPORAL_DB:-temporal}" temporal
setup "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}" visibility
echo "temporal-schema: done"

#!/usr/bin/env bash
# Prints the absolute path of a folder holding the Temporal server the production topology runs:
#   server      the multi-service server binary (frontend, history, matching, worker)
#   sql-tool    its SQL schema tool (temporal-sql-tool in the admin-tools image)
#   schema/     the module's SQL schemas (schema/postgresql/v12/{temporal,visibility}/versioned)
# The version is the one docker-compose.yml runs (the default of TEMPORAL_VERSION there), so CI and
# compose never drift. Order: $TEMPORAL_SERVER_DIR, then a versioned cache under
# ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/temporal-server/, built once from Go modules when absent
# (about two minutes with a warm Go module cache, longer cold). Only the path goes to stdout.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=lib/build-cache.sh
source "tools/scripts/lib/build-cache.sh"

readonly MODULE="go.temporal.io/server"

if [[ -n "${TEMPORAL_SERVER_DIR:-}" ]]; then
  if [[ ! -x "$TEMPORAL_SERVER_DIR/server" || ! -x "$TEMPORAL_SERVER_DIR/sql-tool" || ! -d "$TEMPORAL_SERVER_DIR/schema" ]]; then
    echo "temporal-server: TEMPORAL_SERVER_DIR=$TEMPORAL_SERVER_DIR lacks server, sql-tool or schema/; unset it to build one." >&2
    exit 1
  fi
  realpath "$TEMPORAL_SERVER_DIR"
  exit 0
fi

version="$(compose_version temporal-server temporalio/server TEMPORAL_VERSION)"
tag="v$version"

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/temporal-server/$tag"

is_built() { [[ -x "$cache_dir/server" && -x "$cache_dir/sql-tool" && -d "$cache_dir/schema" ]]; }

build_into() {
  local staging="$1" module_dir
  if ! GOBIN="$staging" go install "$MODULE/cmd/server@$tag" "$MODULE/cmd/tools/sql@$tag" >&2; then
    echo "temporal-server: go install $MODULE/cmd/{server,tools/sql}@$tag failed (see the output above)." >&2
    exit 1
  fi
  # The schemas ship in the module; go install has just put it in the module cache.
  module_dir="$(go env GOMODCACHE)/$MODULE@$tag"
  cp -r "$module_dir/schema" "$staging/schema"
  chmod -R u+w "$staging/schema"
  mv -f "$staging/sql" "$cache_dir/sql-tool"
  rm -rf "$cache_dir/schema"
  mv "$staging/schema" "$cache_dir/schema"
  mv -f "$staging/server" "$cache_dir/server"
}

build_once temporal-server "the Temporal server $tag" "$cache_dir" \
  "Go is needed once to build the Temporal server $tag (https://go.dev/dl/), or set TEMPORAL_SERVER_DIR." \
  is_built build_into
echo "$cache_dir"

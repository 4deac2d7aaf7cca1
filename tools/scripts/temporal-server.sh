#!/usr/bin/env bash
# Prints the absolute path of a folder holding the Temporal server the production topology runs:
#   server      the multi-service server with cardflow's roles compiled in, built from
#               tools/deploy/temporal-server/ (frontend, internal frontend, history, matching, worker)
#   sql-tool    the server module's SQL schema tool (temporal-sql-tool in the admin-tools image)
#   schema/     the module's SQL schemas (schema/postgresql/v12/{temporal,visibility}/versioned)
#   source.sha  the hash of the Go source `server` was built from
# The version is the one tools/deploy/temporal-server/go.mod requires, which docker-compose.yml's
# image build must name too (.ci/compose-check.sh), so CI and compose never drift. Order:
# $TEMPORAL_SERVER_DIR (built from today's source), then a cache folder per version and source
# under ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/temporal-server/, built once from Go modules when
# absent (about two minutes with a warm Go module cache, longer cold; a changed Go file alone
# relinks in under a minute). Only the path goes to stdout.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=lib/build-cache.sh
source "tools/scripts/lib/build-cache.sh"

readonly MODULE="go.temporal.io/server"
readonly SOURCE="tools/deploy/temporal-server"

version="$(sed -n "s|^[[:space:]]*$MODULE v\([0-9][0-9.]*\)$|\1|p" "$SOURCE/go.mod")"
if [[ -z "$version" ]]; then
  echo "temporal-server: $SOURCE/go.mod requires no $MODULE vX.Y.Z" >&2
  exit 1
fi
tag="v$version"
source_sha="$(cat "$SOURCE/go.mod" "$SOURCE/go.sum" "$SOURCE"/*.go | sha256sum | cut -c1-16)"

if [[ -n "${TEMPORAL_SERVER_DIR:-}" ]]; then
  if [[ ! -x "$TEMPORAL_SERVER_DIR/server" || ! -x "$TEMPORAL_SERVER_DIR/sql-tool" || ! -d "$TEMPORAL_SERVER_DIR/schema" ]]; then
    echo "temporal-server: TEMPORAL_SERVER_DIR=$TEMPORAL_SERVER_DIR lacks server, sql-tool or schema/; unset it to build one." >&2
    exit 1
  fi
  if [[ "$(cat "$TEMPORAL_SERVER_DIR/source.sha" 2>/dev/null)" != "$source_sha" ]]; then
    echo "temporal-server: TEMPORAL_SERVER_DIR=$TEMPORAL_SERVER_DIR was not built from today's $SOURCE; unset it to build one." >&2
    exit 1
  fi
  realpath "$TEMPORAL_SERVER_DIR"
  exit 0
fi

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/temporal-server/$tag-roles-$source_sha"

is_built() { [[ -x "$cache_dir/server" && -x "$cache_dir/sql-tool" && -d "$cache_dir/schema" && -f "$cache_dir/source.sha" ]]; }

build_into() {
  local staging="$1" module_dir
  if ! GOBIN="$staging" go install "$MODULE/cmd/tools/sql@$tag" >&2; then
    echo "temporal-server: go install $MODULE/cmd/tools/sql@$tag failed (see the output above)." >&2
    exit 1
  fi
  if ! (cd "$SOURCE" && go build -o "$staging/server" .) >&2; then
    echo "temporal-server: go build in $SOURCE failed (see the output above)." >&2
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
  echo "$source_sha" >"$cache_dir/source.sha"
  # Builds of earlier sources, unused for a week: each holds a server binary of ~150 MB.
  find "$(dirname "$cache_dir")" -mindepth 1 -maxdepth 1 -name "v*-roles-*" -mtime +7 \
    ! -path "$cache_dir" -exec rm -rf {} + 2>/dev/null || true
}

build_once temporal-server "the Temporal server $tag with cardflow's roles" "$cache_dir" \
  "Go is needed once to build the Temporal server $tag (https://go.dev/dl/), or set TEMPORAL_SERVER_DIR." \
  is_built build_into
echo "$cache_dir"

#!/usr/bin/env bash
# Prints the absolute path of a Temporal CLI binary (the dev server the project runs on).
# Order: $TEMPORAL_CLI, then `temporal` on PATH, then a versioned cache under
# ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/temporal-cli/, built once from source with Go when
# absent (a cold build takes about six minutes; the cache is reused afterwards, also across CI runs).
# Only the path goes to stdout; build progress goes to stderr.
set -euo pipefail

readonly VERSION="v1.5.1"
readonly MODULE="github.com/temporalio/cli/cmd/temporal"

if [[ -n "${TEMPORAL_CLI:-}" ]]; then
  if [[ ! -x "$TEMPORAL_CLI" ]]; then
    echo "temporal-cli: TEMPORAL_CLI=$TEMPORAL_CLI is not an executable file; unset it or point it at a Temporal CLI binary." >&2
    exit 1
  fi
  realpath "$TEMPORAL_CLI"
  exit 0
fi

if on_path="$(command -v temporal 2>/dev/null)"; then
  realpath "$on_path"
  exit 0
fi

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/temporal-cli/$VERSION"
binary="$cache_dir/temporal"

is_built() { [[ -x "$binary" ]]; }

build_into() {
  local staging="$1"
  if ! GOBIN="$staging" go install "$MODULE@$VERSION" >&2; then
    echo "temporal-cli: go install $MODULE@$VERSION failed (see the output above)." >&2
    exit 1
  fi
  mv -f "$staging/temporal" "$binary"
}

# shellcheck source=lib/build-cache.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/build-cache.sh"
build_once temporal-cli "the Temporal CLI $VERSION (several minutes on a cold Go cache)" "$cache_dir" \
  "no Temporal CLI found and Go is not installed: install Go 1.25 or newer (https://go.dev/dl/), or install the Temporal CLI $VERSION and put it on PATH or in TEMPORAL_CLI." \
  is_built build_into
echo "$binary"

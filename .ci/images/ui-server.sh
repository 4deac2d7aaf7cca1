#!/usr/bin/env bash
# Prints the absolute path of a folder holding `ui-server`, the Temporal Web UI server at the
# version docker-compose.yml runs (the default of TEMPORAL_UI_VERSION there), built once from its
# Go module (github.com/temporalio/ui-server/v2, which carries the built web assets) into
# ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/temporal-ui/. The module's go.mod has a replace
# directive, which `go install module@version` refuses, so it is built inside a copy of the module.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=../../scripts/lib/build-cache.sh
source "tools/scripts/lib/build-cache.sh"

readonly MODULE="github.com/temporalio/ui-server/v2"
version="$(compose_version ui-server temporalio/ui TEMPORAL_UI_VERSION)"
tag="v$version"
cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/temporal-ui/$tag"

is_built() { [[ -x "$cache_dir/ui-server" ]]; }

build_into() {
  local staging="$1" module_dir
  module_dir="$(cd "$staging" && go mod download -json "$MODULE@$tag" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  cp -r "$module_dir" "$staging/src"
  chmod -R u+w "$staging/src"
  (cd "$staging/src" && CGO_ENABLED=0 go build -trimpath -o "$staging/ui-server" ./cmd/server) >&2
  mv -f "$staging/ui-server" "$cache_dir/ui-server"
}

build_once ui-server "the Temporal UI server $tag" "$cache_dir" \
  "Go is needed once to build the Temporal UI server $tag (https://go.dev/dl/)." is_built build_into
echo "$cache_dir"

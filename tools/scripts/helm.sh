#!/usr/bin/env bash
# Prints the absolute path of a Helm binary (the chart's lint and render, tools/deploy/helm/).
# Order: $HELM_BIN, then a versioned cache under ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/helm/,
# built once from Go modules when absent (about three minutes cold on two cores). Helm on PATH is
# not taken: the chart is checked with the version pinned here. Only the path goes to stdout.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=lib/build-cache.sh
source "tools/scripts/lib/build-cache.sh"

readonly VERSION="v4.3.2"
readonly MODULE="helm.sh/helm/v4"

if [[ -n "${HELM_BIN:-}" ]]; then
  if [[ ! -x "$HELM_BIN" ]]; then
    echo "helm: HELM_BIN=$HELM_BIN is not an executable file; unset it to build one." >&2
    exit 1
  fi
  realpath "$HELM_BIN"
  exit 0
fi

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/helm/$VERSION"
binary="$cache_dir/helm"

is_built() { [[ -x "$binary" ]]; }

build_into() {
  local staging="$1"
  # The version string helm prints comes from a linker flag, as in Helm's own Makefile.
  if ! GOBIN="$staging" go install \
    -ldflags "-X $MODULE/internal/version.version=$VERSION" "$MODULE/cmd/helm@$VERSION" >&2; then
    echo "helm: go install $MODULE/cmd/helm@$VERSION failed (see the output above)." >&2
    exit 1
  fi
  mv -f "$staging/helm" "$binary"
}

build_once helm "Helm $VERSION" "$cache_dir" \
  "Go is needed once to build Helm $VERSION (https://go.dev/dl/), or set HELM_BIN." \
  is_built build_into
echo "$binary"

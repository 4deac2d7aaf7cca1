#!/usr/bin/env bash
# Prints the absolute path of a folder holding the Prometheus Operator's PodMonitor and
# PrometheusRule CRDs, which the chart's optional monitoring objects need on the API server of
# its server-side check (test/kubernetes/). They are the ones the operator's Go module ships
# (example/prometheus-operator-crd/), copied from the Go module cache into a versioned cache
# under ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/prometheus-operator-crds/ once. Only the path
# goes to stdout.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=lib/build-cache.sh
source "tools/scripts/lib/build-cache.sh"

readonly VERSION="v0.85.0"
readonly MODULE="github.com/prometheus-operator/prometheus-operator"
readonly CRDS=(monitoring.coreos.com_podmonitors.yaml monitoring.coreos.com_prometheusrules.yaml)

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/prometheus-operator-crds/$VERSION"

is_built() {
  local crd
  for crd in "${CRDS[@]}"; do [[ -s "$cache_dir/$crd" ]] || return 1; done
}

build_into() {
  local staging="$1" module_dir crd
  module_dir="$(GOFLAGS=-mod=mod go mod download -json "$MODULE@$VERSION" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')"
  if [[ -z "$module_dir" ]]; then
    echo "prometheus-operator-crds: go mod download $MODULE@$VERSION failed." >&2
    exit 1
  fi
  for crd in "${CRDS[@]}"; do cp "$module_dir/example/prometheus-operator-crd/$crd" "$staging/$crd"; done
  for crd in "${CRDS[@]}"; do mv -f "$staging/$crd" "$cache_dir/$crd"; done
}

build_once prometheus-operator-crds "the Prometheus Operator's CRDs $VERSION" "$cache_dir" \
  "Go is needed once to download the Prometheus Operator's module $VERSION (https://go.dev/dl/)." \
  is_built build_into
echo "$cache_dir"

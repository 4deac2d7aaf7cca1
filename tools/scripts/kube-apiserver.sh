#!/usr/bin/env bash
# Prints the absolute path of a folder holding a Kubernetes API server and what it needs, for the
# chart's server-side check (tools/deploy/helm/, test/kubernetes/):
#   kube-apiserver  from k8s.io/kubernetes at KUBE_VERSION
#   kubectl         from the same module, so client and server are one release
#   etcd            go.etcd.io/etcd/server/v3 at ETCD_VERSION, the release that Kubernetes tests with
# Order: $KUBE_APISERVER_DIR, then a versioned cache under
# ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/kube-apiserver/, built once from Go modules when absent
# (about ten minutes cold on two cores). Only the path goes to stdout.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# shellcheck source=lib/build-cache.sh
source "tools/scripts/lib/build-cache.sh"

readonly KUBE_VERSION="v1.34.3"
readonly ETCD_VERSION="v3.6.6"
readonly BINARIES=(kube-apiserver kubectl etcd)

if [[ -n "${KUBE_APISERVER_DIR:-}" ]]; then
  for b in "${BINARIES[@]}"; do
    if [[ ! -f "$KUBE_APISERVER_DIR/$b" || ! -x "$KUBE_APISERVER_DIR/$b" ]]; then
      echo "kube-apiserver: KUBE_APISERVER_DIR=$KUBE_APISERVER_DIR lacks $b; unset it to build one." >&2
      exit 1
    fi
  done
  realpath "$KUBE_APISERVER_DIR"
  exit 0
fi

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/kube-apiserver/$KUBE_VERSION-etcd-$ETCD_VERSION"

is_built() {
  local b
  for b in "${BINARIES[@]}"; do [[ -f "$cache_dir/$b" && -x "$cache_dir/$b" ]] || return 1; done
}

# k8s.io/kubernetes is not meant to be a dependency: its go.mod replaces 31 staging modules with
# ./staging/src folders its module zip lacks, and a go.work names them. The staging modules are
# published at v0.<minor>.<patch>, so the replaces are pointed there and the go.work dropped.
build_kubernetes() {
  local staging="$1" module_dir src staged minor_version
  module_dir="$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')"
  if [[ -z "$module_dir" ]]; then
    echo "kube-apiserver: go mod download k8s.io/kubernetes@$KUBE_VERSION failed." >&2
    exit 1
  fi
  src="$staging/kubernetes"
  cp -r "$module_dir" "$src"
  chmod -R u+w "$src"
  rm -f "$src/go.work" "$src/go.work.sum"
  minor_version="v0.${KUBE_VERSION#v1.}"
  staged="$(sed -n 's|^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*|\1|p' "$src/go.mod")"
  if [[ "$(wc -l <<<"$staged")" -lt 20 ]]; then
    echo "kube-apiserver: found only $(wc -l <<<"$staged") staging replaces in k8s.io/kubernetes's go.mod." >&2
    exit 1
  fi
  local edits=()
  for m in $staged; do edits+=("-replace=$m=$m@$minor_version"); done
  (cd "$src" && go mod edit "${edits[@]}")
  # -mod=mod: the module's go.sum has no lines for the staging modules it never downloaded.
  (cd "$src" && GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0 go build -trimpath -o "$staging/" \
    -ldflags "-X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/client-go/pkg/version.gitVersion=$KUBE_VERSION" \
    ./cmd/kube-apiserver ./cmd/kubectl) >&2
}

build_etcd() {
  # Its own source folder: `go build -o` into a folder named like the binary would nest it there.
  local staging="$1" src="$1/etcd-src"
  mkdir -p "$src"
  cat >"$src/main.go" <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
  (cd "$src" && go mod init cardflow.local/etcd >&2 && go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >&2 &&
    go mod tidy >&2 && CGO_ENABLED=0 GOWORK=off go build -trimpath -o "$staging/etcd" .) >&2
}

build_into() {
  local staging="$1" b
  if ! build_etcd "$staging"; then
    echo "kube-apiserver: building etcd $ETCD_VERSION failed (see the output above)." >&2
    exit 1
  fi
  if ! build_kubernetes "$staging"; then
    echo "kube-apiserver: building kube-apiserver and kubectl $KUBE_VERSION failed (see the output above)." >&2
    exit 1
  fi
  for b in "${BINARIES[@]}"; do mv -f "$staging/$b" "$cache_dir/$b"; done
}

build_once kube-apiserver "kube-apiserver and kubectl $KUBE_VERSION with etcd $ETCD_VERSION" "$cache_dir" \
  "Go is needed once to build kube-apiserver $KUBE_VERSION and etcd $ETCD_VERSION (https://go.dev/dl/), or set KUBE_APISERVER_DIR." \
  is_built build_into
echo "$cache_dir"

#!/usr/bin/env bash
# Builds CI's stand-ins for the upstream images tools/deploy/Dockerfile and docker-compose.yml pull
# (no container registry is reachable from CI), tagged with the upstream names and the versions
# those two files name (fully qualified, docker.io/..., so short names resolve to them without a
# pull), so the files under test are exactly the ones users run. What each
# stand-in replaces and what it does not prove: README.md next to this script.
#
# Each image carries a label with the hash of its inputs (Containerfile, scripts, binaries,
# versions, the base image); an image whose label matches is kept, so a warm run builds nothing.
# Images live in podman's storage under ~/.cache/cardflow/podman (.ci/podman.sh).
# Usage: bash .ci/images/build.sh [all|bases|services]   (as root; needs Go once, for the Temporal
# schema tool and UI builds). `bases` builds what the stack's own image builds start from (node
# for tools/deploy/Dockerfile; golang and debian for tools/deploy/temporal-server/Dockerfile),
# `services` the others, so CI builds them while the two images build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
here=.ci/images

# shellcheck source=../podman.sh
source .ci/podman.sh
podman_setup

readonly LABEL=cardflow.ci.inputs
mode="${1:-all}"
case "$mode" in
  all | bases | services) ;;
  *)
    echo "usage: bash .ci/images/build.sh [all|bases|services]" >&2
    exit 2
    ;;
esac
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

image_inputs() { podman image inspect --format "{{ index .Labels \"$LABEL\" }}" "$1" 2>/dev/null || true; }

# build_image TAG CONTAINERFILE CONTEXT KEY: builds unless TAG already carries KEY.
build_image() {
  local tag="$1" file="$2" context="$3" key="$4" started=$SECONDS
  if [[ "$(image_inputs "$tag")" == "$key" ]]; then
    echo "images: $tag is up to date" >&2
    return 0
  fi
  echo "images: building $tag" >&2
  buildah bud --isolation chroot --quiet --layers=false --label "$LABEL=$key" -f "$file" -t "$tag" "$context" >&2
  echo "images: built $tag in $((SECONDS - started))s" >&2
}

key_of() { cat "$@" | sha256sum | cut -c1-32; }

# --- Debian bookworm, the base of every stand-in -----------------------------------------------
# From the apt mirror this machine is configured with (the only package source CI reaches).
mirror="$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)"
mirror="${mirror:-http://deb.debian.org/debian}"
base=localhost/cardflow-ci/bookworm:latest
base_key="$(printf 'debootstrap minbase bookworm %s v1\n' "$mirror" | sha256sum | cut -c1-32)"
if [[ "$(image_inputs "$base")" != "$base_key" ]]; then
  echo "images: debootstrap of Debian bookworm from $mirror" >&2
  started=$SECONDS
  debootstrap --variant=minbase bookworm "$scratch/rootfs" "$mirror" >"$scratch/debootstrap.log" 2>&1 ||
    {
      tail -n 30 "$scratch/debootstrap.log" >&2
      exit 1
    }
  rm -rf "$scratch/rootfs/var/cache/apt/archives/"*.deb "$scratch/rootfs/var/lib/apt/lists/"*
  tar -C "$scratch/rootfs" -c . | podman import --quiet --change "LABEL $LABEL=$base_key" --change 'CMD ["/bin/bash"]' - "$base" >/dev/null
  rm -rf "$scratch/rootfs"
  echo "images: built $base in $((SECONDS - started))s" >&2
else
  echo "images: $base is up to date" >&2
fi
base_id="$(podman image inspect --format '{{.Id}}' "$base")"

if [[ "$mode" != services ]]; then
  # --- node:<major>-bookworm-slim (tools/deploy/Dockerfile's NODE_IMAGE) -------------------------------
  node_image="$(sed -n 's/^ARG NODE_IMAGE=//p' tools/deploy/Dockerfile)"
  if [[ "$node_image" != node:24-bookworm-slim ]]; then
    echo "images: tools/deploy/Dockerfile uses $node_image; this script stands in node:24-bookworm-slim only (.ci/node24.sh)" >&2
    exit 1
  fi
  node_bin="$(bash .ci/node24.sh)"
  npm_dir="$(npm root -g)/npm"
  mkdir -p "$scratch/node"
  cp "$node_bin" "$scratch/node/node"
  cp -r "$npm_dir" "$scratch/node/npm"
  # The CA bundle the host's npm trusts (npm's cafile, else the system bundle): see node.Containerfile.
  ca_bundle="$(npm config get cafile)"
  [[ -f "$ca_bundle" ]] || ca_bundle=/etc/ssl/certs/ca-certificates.crt
  cp "$ca_bundle" "$scratch/node/ca-certificates.crt"
  echo 'cafile=/usr/local/etc/ci-ca-certificates.crt' >"$scratch/node/npmrc"
  node_key="$({
    echo "$base_id"
    cat "$here/node.Containerfile" "$ca_bundle"
    sha256sum "$node_bin"
    node -p "require('$npm_dir/package.json').version"
  } | sha256sum | cut -c1-32)"
  build_image "docker.io/library/$node_image" "$here/node.Containerfile" "$scratch/node" "$node_key"

  # --- golang:<version>-bookworm and debian:bookworm-slim (tools/deploy/temporal-server/Dockerfile) --
  server_file=tools/deploy/temporal-server/Dockerfile
  go_image="$(sed -n 's/^ARG GO_IMAGE=//p' "$server_file")"
  debian_image="$(sed -n 's/^ARG BASE_IMAGE=//p' "$server_file")"
  if [[ "$go_image" != golang:*-bookworm || "$debian_image" != debian:bookworm-slim ]]; then
    echo "images: $server_file uses $go_image and $debian_image; this script stands in golang:*-bookworm and debian:bookworm-slim only" >&2
    exit 1
  fi
  # This machine's Go (the one that builds the schema tool), not the tag's exact release.
  command -v go >/dev/null 2>&1 || {
    echo "images: Go is needed for the golang stand-in (https://go.dev/dl/)" >&2
    exit 1
  }
  go_key="$({
    echo "$base_id"
    cat "$here/golang.Containerfile" /etc/ssl/certs/ca-certificates.crt
    go version
  } | sha256sum | cut -c1-32)"
  mkdir -p "$scratch/golang"
  if [[ "$(image_inputs "docker.io/library/$go_image")" != "$go_key" ]]; then
    cp -a "$(go env GOROOT)" "$scratch/golang/go"
    cp /etc/ssl/certs/ca-certificates.crt "$scratch/golang/ca-certificates.crt"
  fi
  build_image "docker.io/library/$go_image" "$here/golang.Containerfile" "$scratch/golang" "$go_key"
  rm -rf "$scratch/golang"
  # minbase is what the slim image is: the base itself, under that name.
  podman tag "$base" "docker.io/library/$debian_image"
fi
[[ "$mode" == bases ]] && exit 0

# --- postgres:<version> --------------------------------------------------------------------------
pg_version="$(sed -n 's|.*image: postgres:${POSTGRESQL_VERSION:-\([0-9.]*\)}.*|\1|p' docker-compose.yml)"
mkdir -p "$scratch/postgres"
cp "$here/postgres-entrypoint.sh" "$scratch/postgres/"
pg_key="$({
  echo "$base_id"
  cat "$here/postgres.Containerfile" "$here/postgres-entrypoint.sh"
} | sha256sum | cut -c1-32)"
build_image "docker.io/library/postgres:$pg_version" "$here/postgres.Containerfile" "$scratch/postgres" "$pg_key"

# --- temporalio/admin-tools ---------------------------------------------------------------------
# The schema tool and schemas of the server version cardflow's build requires (the compose file's
# server image is built, not stood in: tools/deploy/temporal-server/Dockerfile on the bases above).
server_dir="$(bash tools/scripts/temporal-server.sh)"
admin_version="$(sed -n 's|.*image: temporalio/admin-tools:${TEMPORAL_ADMINTOOLS_VERSION:-\([^}]*\)}.*|\1|p' docker-compose.yml)"
mkdir -p "$scratch/admin"
cp "$server_dir/sql-tool" "$scratch/admin/sql-tool"
cp -r "$server_dir/schema" "$scratch/admin/schema"
admin_key="$({
  echo "$base_id"
  cat "$here/temporal-admin-tools.Containerfile"
  sha256sum "$server_dir/sql-tool"
  find "$server_dir/schema" -type f | sort | xargs sha256sum
} | sha256sum | cut -c1-32)"
build_image "docker.io/temporalio/admin-tools:$admin_version" "$here/temporal-admin-tools.Containerfile" "$scratch/admin" "$admin_key"

# --- temporalio/ui -------------------------------------------------------------------------------
ui_dir="$(bash "$here/ui-server.sh")"
ui_version="$(sed -n 's|.*image: temporalio/ui:${TEMPORAL_UI_VERSION:-\([0-9.]*\)}.*|\1|p' docker-compose.yml)"
mkdir -p "$scratch/ui"
cp "$ui_dir/ui-server" "$scratch/ui/ui-server"
cp "$here/temporal-ui-start.sh" "$scratch/ui/"
ui_key="$({
  echo "$base_id"
  cat "$here/temporal-ui.Containerfile" "$here/temporal-ui-start.sh"
  sha256sum "$ui_dir/ui-server"
} | sha256sum | cut -c1-32)"
build_image "docker.io/temporalio/ui:$ui_version" "$here/temporal-ui.Containerfile" "$scratch/ui" "$ui_key"

# --- prom/prometheus -----------------------------------------------------------------------------
prometheus_version="$(sed -n 's|.*image: prom/prometheus:${PROMETHEUS_VERSION:-\([^}]*\)}.*|\1|p' docker-compose.yml)"
prometheus_key="$({
  echo "$base_id"
  cat "$here/prometheus.Containerfile"
} | sha256sum | cut -c1-32)"
mkdir -p "$scratch/prometheus"
build_image "docker.io/prom/prometheus:$prometheus_version" "$here/prometheus.Containerfile" "$scratch/prometheus" "$prometheus_key"

podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -v '<none>' >&2

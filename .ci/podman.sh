# Podman as CI's container engine (sourced by .ci/images/build.sh and .ci/compose-e2e.sh).
# Configures a fresh Debian machine by itself: installs the Debian packages, writes podman's
# settings into a folder of its own (never /etc/containers), and serves the Docker API on a socket
# of its own for Debian's docker-compose (v1). Images and layers persist between CI runs in
# ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/podman/storage, so a warm run rebuilds nothing.
#
# The settings this machine kind needs (each found by trying; the VM has cgroups v1, no systemd):
# - runtime runc: crun fails here on cgroups and rlimits; `default_ulimits = []` for the same reason.
# - cgroup_manager cgroupfs and events_logger file: there is no systemd or journald.
# - network_backend netavark with aardvark-dns: containers resolve each other by service name;
#   netavark needs iptables (not installed by podman's Debian package).
# - init_path: compose's `init: true` runs Debian's catatonit, which lives in /usr/bin.
# - storage driver overlay (the kernel's) on the ext4 root works as root; no fuse-overlayfs needed.

podman_cache="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/podman"
podman_run_dir="/run/cardflow-podman"

podman_packages() {
  local missing=() pkg
  for pkg in podman buildah runc catatonit netavark aardvark-dns iptables debootstrap docker-compose; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  if [[ $(id -u) -ne 0 ]]; then
    echo "podman: missing ${missing[*]}; run as root or install them: apt-get install ${missing[*]}" >&2
    return 1
  fi
  echo "podman: installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# podman_setup: packages, settings, and the environment every podman, buildah and compose call uses.
podman_setup() {
  podman_packages
  mkdir -p "$podman_cache/storage" "$podman_run_dir"
  cat >"$podman_cache/containers.conf" <<'EOF'
[containers]
default_ulimits = []
init_path = "/usr/bin/catatonit"

[network]
network_backend = "netavark"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
  cat >"$podman_cache/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$podman_cache/storage"
runroot = "$podman_run_dir/storage"
EOF
  export CONTAINERS_CONF="$podman_cache/containers.conf"
  export CONTAINERS_STORAGE_CONF="$podman_cache/storage.conf"
  # `docker-compose build` goes through the service's build endpoint: chroot isolation, as for buildah.
  export BUILDAH_ISOLATION=chroot
}

# podman_service_start: the Docker API on $podman_run_dir/docker.sock, exported as DOCKER_HOST.
podman_service_start() {
  local socket="$podman_run_dir/docker.sock" i
  rm -f "$socket"
  podman system service --time=0 "unix://$socket" >"$podman_run_dir/service.log" 2>&1 &
  podman_service_pid=$!
  for ((i = 0; i < 100; i++)); do
    [[ -S "$socket" ]] && break
    sleep 0.1
  done
  if [[ ! -S "$socket" ]]; then
    echo "podman: the API service did not create $socket:" >&2
    cat "$podman_run_dir/service.log" >&2
    return 1
  fi
  export DOCKER_HOST="unix://$socket"
}

podman_service_stop() {
  if [[ -n "${podman_service_pid:-}" ]]; then
    kill "$podman_service_pid" 2>/dev/null || true
    wait "$podman_service_pid" 2>/dev/null || true
    podman_service_pid=""
  fi
}

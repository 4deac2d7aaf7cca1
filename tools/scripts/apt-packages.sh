#!/usr/bin/env bash
# The Debian packages cardflow's tests need, in one list for `npm test` (its `pretest`) and CI
# (.ci/run): installed when missing if this runs as root with apt-get, as CI does; otherwise it
# stops at once naming the one command to run. Checked by the binaries the tests run, so a warm
# machine never touches apt.
#
#   bash tools/scripts/apt-packages.sh test   # npm test: unit, component, integration
#   bash tools/scripts/apt-packages.sh ci     # everything .ci/run runs, the cluster tier and compose included
#
# What needs which:
#   postgresql     the component tests of the PostgreSQL stores; the cluster tier's database
#   haproxy        the component test of the receivers' balancer; the cluster tier's balancer
#   chromium       the Web UI decoding test (integration; CARDFLOW_CHROMIUM names another browser)
#   prometheus     promtool checks the alert rules; the cluster tier's Prometheus (CI only)
#   docker-compose `docker-compose config` of the production topology (CI only)
#   openssl        tools/scripts/make-certs.sh (the Temporal mTLS certificates): its component test, the cluster tier
set -euo pipefail

case "${1:-}" in
  test) wanted=(postgresql haproxy chromium openssl) ;;
  ci) wanted=(chromium docker-compose postgresql haproxy prometheus openssl) ;;
  *)
    echo "usage: bash tools/scripts/apt-packages.sh test|ci" >&2
    exit 64
    ;;
esac

present() {
  case "$1" in
    # The server binaries, not on PATH: where the cluster launcher looks for them.
    postgresql) compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null ;;
    # /usr/sbin is not on an unprivileged user's PATH.
    haproxy) command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]] ;;
    chromium) [[ -n "${CARDFLOW_CHROMIUM:-}" && -x "${CARDFLOW_CHROMIUM}" ]] || [[ -x /usr/bin/chromium ]] ;;
    prometheus) command -v promtool >/dev/null 2>&1 ;;
    docker-compose) command -v docker-compose >/dev/null 2>&1 && dpkg -s docker-compose >/dev/null 2>&1 ;;
    openssl) command -v openssl >/dev/null 2>&1 ;;
  esac
}

missing=()
for pkg in "${wanted[@]}"; do
  present "$pkg" || missing+=("$pkg")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "apt: ${wanted[*]} already installed"
  exit 0
fi
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "apt: the tests need Debian packages that are missing: ${missing[*]}. Install them, then run again:" >&2
  echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "apt: installing ${missing[*]}"
DEBIAN_FRONTEND=noninteractive apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Makes the certificates of the Temporal frontend's mutual TLS (docs/operations.md, "Temporal
# mTLS"): a private CA, the server's certificate, and one client certificate per kind of caller.
#
#   bash tools/scripts/make-certs.sh DIR [NAME...]
#
# DIR receives (PEM, EC P-256 keys in PKCS#8):
#   ca.pem ca-key.pem             the CA. Kept when DIR already holds it, so a second run renews
#                                 the other certificates under the same CA (rotation); ca-key.pem
#                                 signs nothing else and belongs offline once the stack runs.
#   server.pem server-key.pem     the Temporal server: its frontend and, as client and server, its
#                                 services among themselves. Names: the compose service `temporal`,
#                                 `haproxy` (a balancer passing TCP through), localhost, 127.0.0.1,
#                                 and every NAME given (DNS names or IPv4 addresses).
#   worker.pem webhooks.pem client.pem ui.pem cli.pem   and their -key.pem: the cardflow workers,
#                                 the webhook receivers, backends and set-up jobs, the Web UI, and
#                                 operators' CLIs. Each its own subject (CN=cardflow-<kind>), so a
#                                 leaked one can be named and replaced alone.
# Validity: CARDFLOW_CERT_DAYS (default 365) for the server and clients, 3650 days for a new CA.
# Needs Debian's openssl CLI. Files are 644 inside a 700 folder, as tools/deploy/secrets/README.md
# explains (the containers read them as unprivileged users); the CA key alone is 600.
set -euo pipefail

if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
if [[ $# -lt 1 || "$1" == -* ]]; then
  echo "usage: bash tools/scripts/make-certs.sh DIR [SERVER_NAME...]" >&2
  exit 64
fi
command -v openssl >/dev/null 2>&1 || {
  echo "make-certs: openssl is missing (Debian: apt-get install openssl)" >&2
  exit 1
}
dir="$1"
shift
days="${CARDFLOW_CERT_DAYS:-365}"
[[ "$days" =~ ^[1-9][0-9]*$ ]] || {
  echo "make-certs: CARDFLOW_CERT_DAYS must be a whole number of days, got '$days'" >&2
  exit 64
}

mkdir -p "$dir"
chmod 700 "$dir"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

if [[ -s "$dir/ca.pem" && ! -s "$dir/ca-key.pem" ]]; then
  # Never a new CA by accident: every side trusts the one in ca.pem.
  echo "make-certs: $dir/ca.pem has no ca-key.pem beside it; put the CA's key back to renew, or move ca.pem aside for a new CA" >&2
  exit 1
fi
if [[ ! -s "$dir/ca.pem" ]]; then
  key "$dir/ca-key.pem"
  openssl req -x509 -new -key "$dir/ca-key.pem" -sha256 -days 3650 -subj '/O=cardflow/CN=cardflow Temporal CA' \
    -addext 'basicConstraints=critical,CA:TRUE,pathlen:0' -addext 'keyUsage=critical,keyCertSign,cRLSign' \
    -out "$dir/ca.pem"
  echo "make-certs: new CA in $dir/ca.pem" >&2
fi

# issue NAME CN EXTENDED_KEY_USAGE [SUBJECT_ALT_NAMES]
issue() {
  local name="$1" cn="$2" eku="$3" sans="${4:-}"
  key "$scratch/$name-key.pem"
  openssl req -new -key "$scratch/$name-key.pem" -subj "/O=cardflow/CN=$cn" -out "$scratch/$name.csr"
  {
    echo 'basicConstraints=critical,CA:FALSE'
    echo 'keyUsage=critical,digitalSignature'
    echo "extendedKeyUsage=$eku"
    [[ -z "$sans" ]] || echo "subjectAltName=$sans"
  } >"$scratch/$name.ext"
  openssl x509 -req -in "$scratch/$name.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca-key.pem" -CAcreateserial \
    -CAserial "$scratch/ca.srl" -sha256 -days "$days" -extfile "$scratch/$name.ext" -out "$scratch/$name.pem" 2>/dev/null
  # Certificate and key replace the old ones together, so no reader sees a mismatched pair for long.
  mv -f "$scratch/$name-key.pem" "$dir/$name-key.pem"
  mv -f "$scratch/$name.pem" "$dir/$name.pem"
}

sans='DNS:temporal,DNS:haproxy,DNS:localhost,IP:127.0.0.1'
for extra in "$@"; do
  if [[ "$extra" =~ ^[0-9]+(\.[0-9]+){3}$ ]]; then sans+=",IP:$extra"; else sans+=",DNS:$extra"; fi
done
# serverAuth and clientAuth: the server's services present this certificate to each other too.
issue server temporal serverAuth,clientAuth "$sans"
for kind in worker webhooks client ui cli; do
  issue "$kind" "cardflow-$kind" clientAuth
done
chmod 644 "$dir"/*.pem
# The CA key is read by this script alone.
chmod 600 "$dir/ca-key.pem"
for cert in server worker webhooks client ui cli; do
  openssl verify -CAfile "$dir/ca.pem" "$dir/$cert.pem" >/dev/null
done
echo "make-certs: server and client certificates (server, worker, webhooks, client, ui, cli) in $dir, valid $days days" >&2

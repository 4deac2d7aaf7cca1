#!/usr/bin/env bash
# Makes the keys that sign the Temporal cluster's JWTs, the JWKS document the server checks them
# against, and one token per caller (docs/operations.md, "Who may do what"):
#
#   bash tools/scripts/make-tokens.sh DIR [--rotate | --retire-old]
#
# DIR receives:
#   keys/<kid>.pem      the signing keys (RSA 3072, mode 600): no container mounts them; the file
#                       `current-kid` names the one that signs.
#   jwks.json           the public half of every key in keys/: the server's `jwtKeyProvider`.
#   <caller>.token      one token per caller, signed by the current key, subject cardflow-<caller>,
#                       valid CARDFLOW_TOKEN_DAYS (default 90), `permissions` (NS: TEMPORAL_NAMESPACE,
#                       default cardflow):
#                         worker, webhooks  NS:write               the workers, the webhook receivers
#                         backend           NS:backend             a merchant's backend
#                         operator          NS:operator            operators who cancel, retry, acknowledge
#                         reader            NS:read                read-only operators
#                         ui                temporal-system:read   the Web UI (with OIDC or a proxy)
#                         setup             temporal-system:admin  the set-up job alone
# Without an option: the keys are kept (one made when there is none) and every token is issued
# anew, each replacing its file by a rename (renewal). --rotate: a new key signs from now on and
# the previous ones stay in jwks.json, so the tokens they signed keep working until every caller
# has its new one. --retire-old: every key but the current one leaves keys/ and jwks.json.
# Needs Debian's openssl CLI. Files are 644 inside a 700 folder, as for make-certs.sh; keys 600.
set -euo pipefail

if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
usage() {
  echo "usage: bash tools/scripts/make-tokens.sh DIR [--rotate | --retire-old]" >&2
  exit 64
}
[[ $# -ge 1 && $# -le 2 && "$1" != -* ]] || usage
dir="$1"
action="${2:-issue}"
[[ "$action" == issue || "$action" == --rotate || "$action" == --retire-old ]] || usage
command -v openssl >/dev/null 2>&1 || {
  echo "make-tokens: openssl is missing (Debian: apt-get install openssl)" >&2
  exit 1
}
days="${CARDFLOW_TOKEN_DAYS:-90}"
[[ "$days" =~ ^[1-9][0-9]*$ ]] || {
  echo "make-tokens: CARDFLOW_TOKEN_DAYS must be a whole number of days, got '$days'" >&2
  exit 64
}
namespace="${TEMPORAL_NAMESPACE:-cardflow}"
[[ "$namespace" =~ ^[A-Za-z0-9._-]+$ ]] || {
  echo "make-tokens: TEMPORAL_NAMESPACE must be a namespace name, got '$namespace'" >&2
  exit 64
}

mkdir -p "$dir/keys"
chmod 700 "$dir" "$dir/keys"

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

new_key() {
  local kid
  kid="k$(date -u +%Y%m%d)-$(openssl rand -hex 3)"
  (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 -out "$dir/keys/$kid.pem" 2>/dev/null)
  echo "$kid" >"$dir/current-kid.new"
  mv -f "$dir/current-kid.new" "$dir/current-kid"
  echo "make-tokens: new signing key $kid" >&2
}

current="$(cat "$dir/current-kid" 2>/dev/null || true)"
if [[ -z "$current" || ! -s "$dir/keys/$current.pem" ]]; then
  [[ -z "$(ls -A "$dir/keys")" ]] || {
    # Never a new key by accident beside others whose tokens are out there.
    echo "make-tokens: $dir/current-kid names no key of $dir/keys; restore it, or empty keys/ for a fresh start" >&2
    exit 1
  }
  new_key
elif [[ "$action" == --rotate ]]; then
  new_key
fi
current="$(cat "$dir/current-kid")"
if [[ "$action" == --retire-old ]]; then
  find "$dir/keys" -name '*.pem' ! -name "$current.pem" -print -delete | sed 's/^/make-tokens: retired /' >&2
fi

# The JWKS document: n and e of each RSA key (RFC 7517), the current key first.
jwk() {
  local kid="$1" modulus
  modulus="$(openssl rsa -in "$dir/keys/$kid.pem" -noout -modulus 2>/dev/null | sed 's/^Modulus=//')"
  [[ "$(openssl rsa -in "$dir/keys/$kid.pem" -noout -text 2>/dev/null | grep -c 'publicExponent: 65537')" == 1 ]] || {
    echo "make-tokens: $kid: the exponent is not 65537" >&2
    exit 1
  }
  printf '{"kty":"RSA","use":"sig","alg":"RS256","kid":"%s","n":"%s","e":"AQAB"}' \
    "$kid" "$(printf '%b' "$(sed 's/../\\x&/g' <<<"$modulus")" | b64url)"
}
{
  printf '{"keys":[%s' "$(jwk "$current")"
  for key in "$dir"/keys/*.pem; do
    kid="$(basename "$key" .pem)"
    [[ "$kid" == "$current" ]] || printf ',%s' "$(jwk "$kid")"
  done
  printf ']}\n'
} >"$dir/jwks.json.new"
chmod 644 "$dir/jwks.json.new"
mv -f "$dir/jwks.json.new" "$dir/jwks.json"

# token CALLER PERMISSION...: a JWT signed RS256 by the current key.
now="$(date -u +%s)"
token() {
  local caller="$1" header payload input permissions
  shift
  permissions="$(printf '"%s",' "$@")"
  header="$(printf '{"alg":"RS256","typ":"JWT","kid":"%s"}' "$current" | b64url)"
  payload="$(printf '{"iss":"cardflow","sub":"cardflow-%s","permissions":[%s],"iat":%s,"exp":%s}' \
    "$caller" "${permissions%,}" "$now" "$((now + days * 86400))" | b64url)"
  input="$header.$payload"
  printf '%s.%s\n' "$input" "$(printf '%s' "$input" | openssl dgst -sha256 -sign "$dir/keys/$current.pem" | b64url)" \
    >"$dir/$caller.token.new"
  chmod 644 "$dir/$caller.token.new"
  mv -f "$dir/$caller.token.new" "$dir/$caller.token"
}
token worker "$namespace:write"
token webhooks "$namespace:write"
token backend "$namespace:backend"
token operator "$namespace:operator"
token reader "$namespace:read"
token ui temporal-system:read
token setup temporal-system:admin
echo "make-tokens: tokens (worker, webhooks, backend, operator, reader, ui, setup) for namespace $namespace in $dir," \
  "signed by $current, valid $days days; jwks.json holds $(find "$dir/keys" -name '*.pem' | wc -l) key(s)" >&2

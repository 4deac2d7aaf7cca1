#!/usr/bin/env bash
# Validates docker-compose.yml: the default services and the `staging` profile, with
# the example settings (tools/deploy/compose.env.example) and with the staging settings
# (tools/deploy/staging.env). Installs Debian's docker-compose when it is missing (needs root and apt).
# No Docker daemon is needed: `config` only parses, interpolates and checks the file.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v docker-compose >/dev/null 2>&1; then
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "compose-check: docker-compose is not installed (Debian: apt-get install docker-compose)" >&2
    exit 1
  fi
  echo "compose-check: installing docker-compose (Debian package)" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
fi

check() {
  echo "compose-check: docker-compose $*" >&2
  docker-compose -f docker-compose.yml "$@" config -q
}

check --env-file tools/deploy/compose.env.example
check --env-file tools/deploy/compose.env.example --profile staging
check --env-file tools/deploy/staging.env --profile staging

# The worker needs the provider URL: without it, config must fail (a required variable).
if env -u CARDFLOW_PROVIDER_BASE_URL docker-compose -f docker-compose.yml --env-file /dev/null config -q 2>/dev/null; then
  echo "compose-check: docker-compose.yml accepted a configuration without CARDFLOW_PROVIDER_BASE_URL" >&2
  exit 1
fi
# Which environment a stack is (sandbox or production) is never guessed: CARDFLOW_ENV is required.
no_env="$(mktemp)"
grep -v '^CARDFLOW_ENV=' tools/deploy/compose.env.example >"$no_env"
if out="$(env -u CARDFLOW_ENV docker-compose -f docker-compose.yml --env-file "$no_env" config -q 2>&1)" ||
  ! grep -q 'set CARDFLOW_ENV' <<<"$out"; then
  echo "compose-check: docker-compose.yml accepted a configuration without CARDFLOW_ENV" >&2
  rm -f "$no_env"
  exit 1
fi
rm -f "$no_env"
# One server version: the tag of the server image docker-compose.yml builds, the version
# tools/deploy/temporal-server/go.mod requires (which tools/scripts/temporal-server.sh builds for CI
# and `npm run cluster` too), and the admin-tools image that runs the schema script.
version="$(sed -n 's|^ *image: cardflow-temporal:\([0-9.]*\)$|\1|p' docker-compose.yml)"
if [[ -z "$version" ]]; then
  echo "compose-check: docker-compose.yml names no cardflow-temporal:X.Y.Z server image" >&2
  exit 1
fi
if ! grep -q "^TEMPORAL_ADMINTOOLS_VERSION=$version-" tools/deploy/compose.env.example; then
  echo "compose-check: tools/deploy/compose.env.example lacks TEMPORAL_ADMINTOOLS_VERSION=$version-... (the server version of docker-compose.yml)" >&2
  exit 1
fi
if ! grep -q "^[[:space:]]*go.temporal.io/server v$version\$" tools/deploy/temporal-server/go.mod; then
  echo "compose-check: tools/deploy/temporal-server/go.mod does not require go.temporal.io/server v$version" >&2
  exit 1
fi
if ! grep -q "temporalio/admin-tools:\${TEMPORAL_ADMINTOOLS_VERSION:-$version-" docker-compose.yml; then
  echo "compose-check: the admin-tools default in docker-compose.yml is not for server $version" >&2
  exit 1
fi
# What the running stack relies on, in the resolved file (the staging profile, so every service):
# a health check on every long-running service but the UI, the project's own Temporal
# configuration mounted, the frontend behind mutual TLS for every client, and no token-less codec
# access unless a deployment asks for it.
# docker-compose (v1) is Python with PyYAML, so python3 reads its output.
env -u CARDFLOW_CODEC_SERVER_TOKENLESS docker-compose -f docker-compose.yml --env-file tools/deploy/staging.env --profile staging config |
  python3 -c '
import sys, yaml
services = yaml.safe_load(sys.stdin)["services"]
problems = []
for name, service in services.items():
    one_shot = service.get("restart") == "no"
    if not one_shot and name != "temporal-ui" and "healthcheck" not in service:
        problems.append(f"{name} has no healthcheck")
temporal = services["temporal"]
if not any(str(v).endswith(":/etc/cardflow/temporal:ro") or (isinstance(v, dict) and v.get("target") == "/etc/cardflow/temporal") for v in temporal.get("volumes", [])):
    problems.append("temporal does not mount tools/deploy/temporal")
if "--config etc/cardflow/temporal --env cluster" not in " ".join(temporal.get("entrypoint", [])):
    problems.append("temporal does not run with tools/deploy/temporal/cluster.yaml")
# The frontend locked down: no `--allow-no-auth`, its certificate mounted, and every client of it
# presenting a certificate that is mounted into it (the UI by its own variables).
if "--allow-no-auth" in " ".join(temporal.get("entrypoint", [])):
    problems.append("temporal runs with --allow-no-auth")
def mounted(service):
    return {"/run/secrets/" + (s if isinstance(s, str) else s.get("target") or s["source"]) for s in service.get("secrets", [])}
if not {"/run/secrets/ca.pem", "/run/secrets/server.pem", "/run/secrets/server-key.pem"} <= mounted(temporal):
    problems.append("temporal does not mount its CA, certificate and key (ca.pem, server.pem, server-key.pem)")
for name, service in services.items():
    env = service.get("environment") or {}
    if name == "temporal" or "TEMPORAL_ADDRESS" not in env:
        continue
    keys = ["TEMPORAL_TLS_CA", "TEMPORAL_TLS_CERT", "TEMPORAL_TLS_KEY"] if name == "temporal-ui" else [
        "TEMPORAL_TLS_SERVER_CA_CERT_PATH", "TEMPORAL_TLS_CLIENT_CERT_PATH", "TEMPORAL_TLS_CLIENT_KEY_PATH"]
    for key in keys:
        if not env.get(key):
            problems.append(f"{name} connects to Temporal without {key}")
        elif env[key] not in mounted(service):
            problems.append(f"{name}: {key}={env[key]} is not one of its secrets")
    # Roles: every client but the UI (its certificate makes it a reader) sends its own token.
    if name != "temporal-ui":
        token = env.get("TEMPORAL_API_KEY_FILE")
        if not token or token not in mounted(service):
            problems.append(f"{name} connects to Temporal without its token as a secret (TEMPORAL_API_KEY_FILE)")
        elif ("admin" in token or "setup" in token) != (name == "temporal-setup"):
            problems.append(f"{name} gets {token}: the set-up job alone holds the admin token")
if "TEMPORAL_ROLES" in (temporal.get("environment") or {}):
    problems.append("temporal sets TEMPORAL_ROLES: the compose stack runs with roles")
if "/run/secrets/jwks.json" not in mounted(temporal):
    problems.append("temporal does not mount the JWKS document (jwks.json)")
if "build" not in temporal:
    problems.append("temporal is not built from tools/deploy/temporal-server/")
worker = services["worker"]
if worker["environment"].get("CARDFLOW_NOTIFY_SECRET_FILE") != "/run/secrets/notify_secret" or not any(
    (v if isinstance(v, str) else v.get("source")) == "notify_secret" for v in worker.get("secrets", [])
):
    problems.append("the worker does not get the notification signing secret as the notify_secret file")
if "CARDFLOW_NOTIFY_SECRET" in worker["environment"]:
    problems.append("the notification signing secret is in the environment, not a file")
if services["codec-server"]["environment"].get("CARDFLOW_CODEC_SERVER_TOKENLESS") != "never":
    problems.append("the codec server lets requests without the token in by default")
for problem in problems:
    print(f"compose-check: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
'
[[ -f .dockerignore ]] || {
  echo "compose-check: no root .dockerignore (docker-compose sends the whole tree as build context)" >&2
  exit 1
}
sh -n tools/deploy/temporal-schema.sh
sh -n tools/deploy/npm-ci.sh
echo "compose-check: ok" >&2

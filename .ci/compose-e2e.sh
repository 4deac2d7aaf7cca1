#!/usr/bin/env bash
# CI phase `image + compose`: the deployment users run, run. From a clean clone of this checkout:
#   1. builds the stand-ins of the upstream images (.ci/images/build.sh; cached; all but the bases
#      of the stack's own images, node, golang and debian, while those images build),
#   2. runs the set-up steps of docs/production.md exactly as printed (the `ci:compose-setup` and
#      `ci:compose-staging` blocks, every line but `docker-compose`), adds CI's free ports to .env,
#   3. builds the cardflow image with `docker-compose build` (tools/deploy/Dockerfile, root .dockerignore)
#      and checks it: runs as `node`, multi-stage, no development-only package inside, and every
#      server process exits 2 naming the missing setting; builds cardflow's Temporal server image
#      (tools/deploy/temporal-server/Dockerfile, Go in the container; its layers cached in podman's
#      storage, so only a change of the server's Go sources rebuilds it),
#   4. brings the staging stack up with two workers and waits until every service is healthy,
#   5. a client outside the containers (the checkout's `cardflow` CLI) completes a B2B onboarding
#      with its deposit; the sandbox's webhooks reach the receiver through its published port; the
#      stack's Prometheus has every cardflow process and the Temporal server up and every rule evaluated;
#      the Temporal frontend (mutual TLS) serves the CLI with its certificate and refuses it without;
#      roles: each caller's token is allowed what it needs and refused what it must not do (a
#      backend cannot terminate, the UI cannot signal, a worker cannot register a namespace, a
#      token of another key or expired is refused), and the hourly reconciliation Schedule fires,
#   6. `docker-compose stop` (no service may need the SIGKILL at the end of its grace period),
#      `down`, `up` again: the finished workflow is still in history, a new onboarding completes,
#   6b. an upgrade by docs/production.md's steps: build B (this commit with a workflow file changed
#      and an expand migration) beside build A: B's worker refuses A's schema until B's set-up job
#      migrates it, A's restarted workers run on the migrated schema, onboardings parked on A
#      complete on A, new ones run on B, A is retired,
#   7. `docker-compose down -v`, and checks nothing of the project is left (also on failure).
# Prints the build times of the two images, the image size and the time from `up` to healthy.
# Needs root (podman, apt), Go once (stand-in builds) and dist/ of this checkout (npm run build).
set -euo pipefail
# One compound command: bash parses the whole script before running it, so editing this file
# during a run cannot change what the run executes.
{
cd "$(dirname "${BASH_SOURCE[0]}")/.."
checkout="$PWD"

# shellcheck source=podman.sh
source .ci/podman.sh
podman_setup

step() { echo "compose-e2e: $*" >&2; }
fail() {
  echo "compose-e2e: FAILED: $*" >&2
  exit 1
}

[[ -f dist/client/cli/main.js ]] || npm run build >&2

# The bases of the stack's own images now (their builds need them); the others while they build.
bash .ci/images/build.sh bases

work="$(mktemp -d /tmp/cardflow-compose.XXXXXX)"
project="cardflowci$$"
export COMPOSE_PROJECT_NAME="$project"
health_loop_pid=""
images_pid=""
compose() { (cd "$work/cardflow" && docker-compose -f docker-compose.yml -f "$checkout/.ci/compose.ci.yml" --profile staging "$@"); }

leftovers() {
  {
    podman ps -a --filter "label=com.docker.compose.project=$project" --format '{{.Names}}'
    podman network ls --filter "label=com.docker.compose.project=$project" --format '{{.Name}}'
    podman volume ls --filter "label=com.docker.compose.project=$project" --format '{{.Name}}'
  } 2>/dev/null
}

cleanup() {
  local status=$?
  set +e
  if [[ $status -ne 0 && -f "$work/cardflow/.env" ]]; then
    step "logs of the failed stack (last 40 lines per service):"
    compose ps >&2
    compose logs --no-color --tail=40 >&2
  fi
  [[ -n "$health_loop_pid" ]] && kill "$health_loop_pid" 2>/dev/null && wait "$health_loop_pid" 2>/dev/null
  [[ -n "$images_pid" ]] && kill "$images_pid" 2>/dev/null && wait "$images_pid" 2>/dev/null
  if [[ -f "$work/cardflow/.env" ]]; then compose down -v --remove-orphans --timeout 20 >/dev/null 2>&1; fi
  # Whatever compose could not remove (a failed start), by the project's label.
  podman rm -f $(podman ps -aq --filter "label=com.docker.compose.project=$project") >/dev/null 2>&1
  podman network rm $(podman network ls -q --filter "label=com.docker.compose.project=$project") >/dev/null 2>&1
  podman volume rm $(podman volume ls -q --filter "label=com.docker.compose.project=$project") >/dev/null 2>&1
  podman_service_stop
  # Earlier builds' layers that nothing has used for three days: the storage stays bounded, and the
  # layer cache of the last few days (npm's install, the build) is kept.
  podman image prune -f --filter until=72h >/dev/null 2>&1
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

podman_service_start

# --- 1. a clean clone ------------------------------------------------------------------------------
git clone -q --no-local "$checkout" "$work/cardflow"
git -C "$work/cardflow" checkout -q "$(git rev-parse HEAD)"
cd "$work/cardflow"

# --- 2. the documented set-up steps, as printed --------------------------------------------------------
# The lines of a marked block of docs/production.md, without the `docker-compose` commands.
doc_block() {
  awk -v marker="<!-- ci:$1 -->" '
    $0 == marker { found = 1; next }
    found && /^```sh$/ { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }' docs/production.md | grep -v '^docker-compose '
}
for block in compose-setup compose-staging; do
  script="$(doc_block "$block")"
  [[ -n "$script" ]] || fail "docs/production.md has no ci:$block block"
  step "running docs/production.md ci:$block as printed:"
  sed 's/^/    /' <<<"$script" >&2
  bash -euo pipefail -c "$script" >&2
done
for secret in postgres_password codec_server_token codec_keys database_url database_admin_url \
  temporal-tls/ca.pem temporal-tls/server.pem temporal-tls/server-key.pem temporal-tls/worker.pem \
  temporal-tls/webhooks.pem temporal-tls/client.pem temporal-tls/ui.pem temporal-tls/cli.pem notify_secret \
  temporal-auth/jwks.json temporal-auth/worker.token temporal-auth/webhooks.token temporal-auth/backend.token \
  temporal-auth/ui.token temporal-auth/setup.token; do
  [[ -s "tools/deploy/secrets/$secret" ]] || fail "the documented steps left tools/deploy/secrets/$secret empty"
done
[[ "$(stat -c %a tools/deploy/secrets/temporal-tls/ca-key.pem)" == 600 ]] || fail "the CA's key is not 600 after the documented steps"
signing_key="tools/deploy/secrets/temporal-auth/keys/$(cat tools/deploy/secrets/temporal-auth/current-kid).pem"
[[ "$(stat -c %a "$signing_key")" == 600 ]] || fail "the token signing key is not 600 after the documented steps"
grep -q '"permissions":\["cardflow-staging:write"\]' <(cut -d. -f2 tools/deploy/secrets/temporal-auth/worker.token | tr '_-' '/+' | base64 -d 2>/dev/null) ||
  fail "the worker's token is not for the staging namespace after the documented steps"
[[ "$(stat -c %a tools/deploy/secrets)" == 700 ]] || fail "tools/deploy/secrets is not 700 after the documented steps"
[[ "$(stat -c %a tools/deploy/secrets/codec_keys)" == 644 ]] || fail "codec_keys is not 644 after the documented steps"
grep -qE '^k2026a:[A-Za-z0-9+/]{43}=$' tools/deploy/secrets/codec_keys || fail "codec_keys is not one id:base64key line"

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
webhook_port="$(free_port)"
temporal_port="$(free_port)"
ui_port="$(free_port)"
codec_port="$(free_port)"
prometheus_port="$(free_port)"
# The receiver is published on the host's own address, the one the provider would call, and the
# sandbox calls it there: from the sandbox's network out to the host and back in through the
# published port. (Not on 0.0.0.0, compose's default: podman's Docker API with netavark 1.4 turns
# an explicit 0.0.0.0 into a forwarding rule for the literal address 0.0.0.0, which only the
# host's loopback reaches; Docker forwards every address for it.)
host_ip="$(ip -4 route get 1.1.1.1 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p')"
[[ -n "$host_ip" ]] || host_ip="$(hostname -I | awk '{print $1}')"
[[ -n "$host_ip" ]] || fail "no IPv4 address of this host to publish the receiver on"
# CI's additions, after the documented settings (later lines win): free ports, the receiver on the
# host's address with the sandbox's callbacks sent there, and the test-only Temporal port
# (.ci/compose.ci.yml).
cat >>.env <<EOF

# --- added by .ci/compose-e2e.sh ---
COMPOSE_PROJECT_NAME=$project
CARDFLOW_WEBHOOK_BIND=$host_ip
CARDFLOW_WEBHOOK_PORT=$webhook_port
CARDFLOW_UI_PORT=$ui_port
CARDFLOW_CODEC_PORT=$codec_port
CARDFLOW_PROMETHEUS_PORT=$prometheus_port
CARDFLOW_SANDBOX_WEBHOOK_URL=http://$host_ip:$webhook_port/webhooks
CI_TEMPORAL_PORT=$temporal_port
CI_DYNAMIC_CONFIG=$work/dynamic-config.yaml
EOF
{
  cat tools/deploy/temporal/dynamic-config.yaml
  printf '%s\n' '# CI only (.ci/compose.ci.yml): the rollout ends in seconds.' \
    'matching.wv.VersionDrainageStatusRefreshInterval:' '  - value: 3s' \
    'matching.wv.VersionDrainageStatusVisibilityGracePeriod:' '  - value: 3s' \
    'matching.PollerHistoryTTL:' '  - value: 10s'
} >"$work/dynamic-config.yaml"

# --- 3. the image ------------------------------------------------------------------------------------
# The documented `up --build` builds it; built first here to time it and check it before the stack.
bash .ci/images/build.sh services >"$work/images.log" 2>&1 &
images_pid=$!
started=$SECONDS
compose build worker >&2
build_secs=$((SECONDS - started))
image="cardflow:local"
step "image built in ${build_secs}s"
# cardflow's Temporal server, as `up --build` builds it (after the cardflow image: two cores).
started=$SECONDS
compose build temporal >&2
server_build_secs=$((SECONDS - started))
step "Temporal server image built in ${server_build_secs}s: $(podman run --rm cardflow-temporal:1.29.1 --version)"
images_status=0
wait "$images_pid" || images_status=$?
images_pid=""
cat "$work/images.log" >&2
[[ $images_status -eq 0 ]] || fail "the stand-ins of the upstream images did not build"
size_bytes="$(podman image inspect --format '{{.Size}}' "$image")"
size_mb=$((size_bytes / 1000000))
step "image size: ${size_mb} MB"

user="$(podman image inspect --format '{{.Config.User}}' "$image")"
[[ "$user" == node ]] || fail "the image runs as '$user', not node"
[[ "$(podman run --rm "$image" id -u)" == 1000 ]] || fail "the image's processes do not run as uid 1000"
cmd="$(podman image inspect --format '{{join .Config.Cmd " "}}' "$image")"
[[ "$cmd" == "node dist/"* ]] || fail "the image's command is '$cmd', not node dist/..."
[[ "$(grep -c '^FROM ' tools/deploy/Dockerfile)" -ge 2 ]] || fail "tools/deploy/Dockerfile is not multi-stage"
# No development-only package: every package in the image's node_modules is checked against the
# lock, which marks the packages only development needs `"dev": true` (tsx, typescript, jest,
# eslint, prettier, ...; a devDependency that a production package needs too, such as @swc/core
# for the worker's bundler, is not marked). And the named tools by name, in case the lock is wrong.
podman run --rm "$image" sh -c 'find node_modules -name package.json -path "*node_modules/*" | sed "s|/package.json\$||"' >"$work/installed"
present="$(node -e "
  const lock = require('./package-lock.json').packages;
  const installed = require('fs').readFileSync('$work/installed', 'utf8').split('\n').filter(Boolean);
  const dev = installed.filter((p) => lock[p] && lock[p].dev === true);
  for (const tool of ['tsx', 'typescript', 'jest', 'eslint', 'prettier', 'ts-jest', '@swc/jest'])
    if (installed.includes('node_modules/' + tool)) dev.push('node_modules/' + tool);
  console.log([...new Set(dev)].join(' '));
")"
[[ -z "$present" ]] || fail "development-only packages in the image: $present"
ts="$(podman run --rm "$image" sh -c 'find /app/dist /app/bin -name "*.ts" ! -name "*.d.ts" | head -n 3')"
[[ -z "$ts" ]] || fail "TypeScript sources in the image: $ts"
step "image: user node (uid 1000), '$cmd', none of its $(wc -l <"$work/installed") packages development-only"

# Every server process stops with exit code 2 and the name of what is missing.
expect_exit2() {
  local what="$1" needle="$2" out code=0
  shift 2
  out="$(podman run --rm "$@" 2>&1)" || code=$?
  [[ $code -eq 2 ]] || fail "$what exited $code, not 2: $out"
  grep -q -- "$needle" <<<"$out" || fail "$what did not name $needle: $out"
  step "exit 2 naming $needle: $what"
}
expect_exit2 "worker without provider settings" CARDFLOW_PROVIDER_BASE_URL -e CARDFLOW_ENV=production "$image" node dist/workers/main.js
expect_exit2 "webhooks without the platform key" CARDFLOW_PLATFORM_PUBLIC_KEY -e CARDFLOW_ENV=production "$image" node dist/webhooks/main.js
expect_exit2 "codec server without keys" CARDFLOW_CODEC_KEYS -e CARDFLOW_ENV=production "$image" node dist/platform/codec/main.js
expect_exit2 "temporal-setup with a bad retention" CARDFLOW_NAMESPACE_RETENTION_DAYS -e CARDFLOW_NAMESPACE_RETENTION_DAYS=0 "$image" node dist/tools/deploy/setup-temporal.js
expect_exit2 "worker with an absent secret file" CARDFLOW_DATABASE_URL_FILE \
  -e CARDFLOW_DATABASE_URL_FILE=/run/secrets/database_url "$image" node dist/workers/main.js

# --- 4. up, until healthy -------------------------------------------------------------------------------
# Podman runs health checks from systemd timers, and CI machines have no systemd: run them here,
# as Docker's daemon would, for every container of the project that has one.
health_loop() {
  while true; do
    for id in $(podman ps -q --filter "label=com.docker.compose.project=$project" 2>/dev/null); do
      podman healthcheck run "$id" >/dev/null 2>&1 &
    done
    wait
    sleep 2
  done
}
health_loop &
health_loop_pid=$!

wait_healthy() {
  local deadline=$((SECONDS + 300)) line name status pending
  while true; do
    pending=""
    while read -r name status; do
      [[ -z "$name" ]] && continue
      case "$status" in
        healthy) ;;
        none) [[ "$(podman inspect --format '{{.State.Status}}' "$name")" == running ]] || pending+=" $name" ;;
        *) pending+=" $name($status)" ;;
      esac
    done < <(podman ps --filter "label=com.docker.compose.project=$project" \
      --format '{{.Names}} {{if .Status}}{{.Status}}{{end}}' | sed -E 's/^([^ ]+) .*\((healthy|unhealthy|starting)\).*$/\1 \2/; t; s/^([^ ]+) .*$/\1 none/')
    for service in postgresql temporal temporal-ui codec-server worker webhooks prometheus sandbox; do
      running="$(podman ps --filter "label=com.docker.compose.project=$project" --filter "label=com.docker.compose.service=$service" -q | wc -l)"
      wanted=1
      [[ $service == worker ]] && wanted=2
      ((running == wanted)) || pending+=" $service($running of $wanted running)"
    done
    [[ -z "$pending" ]] && return 0
    ((SECONDS < deadline)) || fail "not healthy after 300 s:$pending"
    sleep 2
  done
}

up() {
  local started=$SECONDS
  compose up -d --build --scale worker=2 >&2
  wait_healthy
  up_secs=$((SECONDS - started))
}

# An operator's shell: the frontend by its published port, with the CLI's certificate of the stack's
# CA (docs/operations.md, "Temporal mTLS") and a backend's token (it starts onboardings and reads
# their results: "Who may do what").
tls_env() {
  local certs="$work/cardflow/tools/deploy/secrets/temporal-tls"
  echo TEMPORAL_TLS_SERVER_CA_CERT_PATH="$certs/ca.pem" TEMPORAL_TLS_CLIENT_CERT_PATH="$certs/cli.pem" \
    TEMPORAL_TLS_CLIENT_KEY_PATH="$certs/cli-key.pem" TEMPORAL_TLS_SERVER_NAME=temporal
}
cli() {
  # shellcheck disable=SC2046 # tls_env prints NAME=path words without spaces
  env -i PATH="$PATH" HOME="$HOME" NODE_ENV=production CARDFLOW_ENV=sandbox $(tls_env) \
    TEMPORAL_API_KEY_FILE="$work/cardflow/tools/deploy/secrets/temporal-auth/backend.token" \
    TEMPORAL_ADDRESS="127.0.0.1:$temporal_port" TEMPORAL_NAMESPACE=cardflow-staging \
    CARDFLOW_CODEC_KEYS_FILE="$work/cardflow/tools/deploy/secrets/codec_keys" \
    CARDFLOW_REFERENCE_DIR="$work/reference" \
    node "$checkout/client/cli/cardflow.js" "$@"
}

# The reference data the CLI's onboarding check reads. A backend beside the workers shares their
# database, where the workers' schedule keeps the lists; this one runs outside the stack, with
# neither the database nor the provider in reach, so it is handed the lists a worker reads.
copy_reference() {
  mkdir -p "$work/reference"
  local cli_name list
  for cli_name in area-codes cities occupations; do
    list="$cli_name"
    [[ "$cli_name" == area-codes ]] && list=mobile-area-codes
    compose exec -T worker node client/cli/cardflow.js reference "$cli_name" --json |
      node -e "const records = JSON.parse(require('fs').readFileSync(0, 'utf8'));
        if (!Array.isArray(records) || records.length === 0) process.exit(1);
        require('fs').writeFileSync(process.argv[1], JSON.stringify({ records, fetchedAt: Date.now() }));" \
        "$work/reference/$list.json" || fail "the worker could not read the reference list $list"
  done
}

# A B2B customer with an initial deposit (client/examples/customer.json), under a fresh reference
# and e-mail address (the provider refuses a second holder with the same one).
onboard() {
  local ref="$1" file="$work/$1.json"
  node -e "const c=require('$checkout/client/examples/customer.json'); c.customerRef='$ref'; c.holder.email='$ref@example.com'; require('fs').writeFileSync('$file', JSON.stringify(c))"
  cli onboard --file "$file" >&2
  local out
  out="$(timeout 180 bash -c "$(declare -f cli tls_env); checkout='$checkout' work='$work' temporal_port='$temporal_port'; cli result '$ref' --json")" ||
    fail "onboarding $ref did not complete: $out"
  node -e "
    const r = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    if (r.status !== 'COMPLETED' || r.result?.card?.initialDeposit?.amount !== '25.00' || r.result?.balance?.amount !== '25.00')
      process.exit(1);" <<<"$out" || fail "onboarding $ref did not complete with its card and 25.00 deposit: $out"
  step "onboarding $ref completed with its deposit"
}

step "up (staging profile, two workers)"
up
first_up_secs=$up_secs
step "healthy ${up_secs}s after up"
# The operators' ports on the host's loopback: the Web UI serves its page; the codec server is
# ready and, by the compose default, refuses a request without its token.
http_status() { node -e "fetch(process.argv[1], process.argv[2] ? { method: 'POST', body: process.argv[2], headers: { 'content-type': 'application/json' } } : {}).then((r) => console.log(r.status), () => console.log(0))" "$@"; }
[[ "$(http_status "http://127.0.0.1:$ui_port/")" == 200 ]] || fail "the Web UI does not answer on its published port"
[[ "$(http_status "http://127.0.0.1:$codec_port/readyz")" == 200 ]] || fail "the codec server is not ready on its published port"
[[ "$(http_status "http://127.0.0.1:$codec_port/decode" '{"payloads":[]}')" == 401 ]] ||
  fail "the codec server answered a request without its token"
step "Web UI answers; codec server ready and refusing requests without its token"
copy_reference
step "the reference lists, as a worker reads them, handed to the CLI outside the stack"
onboard ci-compose-1
handled="$(compose logs --no-color webhooks | grep -c '"webhook handled"' || true)"
((handled > 0)) || fail "no webhook reached the receiver through its published port"
step "the receiver handled $handled webhook(s) delivered to its published port"
# The frontend answers the operators' CLI with its certificate and refuses it without one; the Web
# UI, with its own, reads the namespace.
cli deployment list >/dev/null || fail "the CLI with its certificate could not list the deployment"
if env -i PATH="$PATH" HOME="$HOME" NODE_ENV=production CARDFLOW_ENV=sandbox TEMPORAL_ADDRESS="127.0.0.1:$temporal_port" \
  TEMPORAL_NAMESPACE=cardflow-staging CARDFLOW_TEMPORAL_RIDE_OUT_MS=0 \
  CARDFLOW_CODEC_KEYS_FILE="$work/cardflow/tools/deploy/secrets/codec_keys" node "$checkout/client/cli/cardflow.js" deployment list >/dev/null 2>&1; then
  fail "the Temporal frontend answered a client without a certificate"
fi
[[ "$(http_status "http://127.0.0.1:$ui_port/api/v1/namespaces/cardflow-staging")" == 200 ]] ||
  fail "the Web UI does not reach the Temporal frontend with its certificate"
step "the Temporal frontend serves the CLI with its certificate, refuses it without; the Web UI reaches it with its own"

# Roles (docs/operations.md, "Who may do what"): each caller, by its certificate and its token
# from the documented set-up, is allowed what it needs and refused what it must not do, on runs
# of a workflow type no worker polls (so each call has an open run to act on). A token of another
# key (the current key id, so only the signature fails) and an expired one are refused.
cat >"$work/roles.js" <<'ROLES'
const { createPrivateKey, createSign, generateKeyPairSync, randomUUID } = require('crypto');
const { readFileSync } = require('fs');
const { join } = require('path');
const { Client, Connection } = require(process.env.CHECKOUT + '/node_modules/@temporalio/client');
const { status } = require(process.env.CHECKOUT + '/node_modules/@grpc/grpc-js');
const { msToTs } = require(process.env.CHECKOUT + '/node_modules/@temporalio/common/lib/time');
const [tlsDir, authDir, address, namespace] = process.argv.slice(2);
const token = (caller) => readFileSync(join(authDir, caller + '.token'), 'utf8').trim();
const kid = readFileSync(join(authDir, 'current-kid'), 'utf8').trim();
function signed(key, expiresIn) {
  const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const input = b64({ alg: 'RS256', typ: 'JWT', kid }) + '.' +
    b64({ iss: 'cardflow', sub: 'cardflow-roles-probe', permissions: [namespace + ':write'], iat: now - 7200, exp: now + expiresIn });
  return input + '.' + createSign('RSA-SHA256').update(input).sign(key).toString('base64url');
}
const CALLERS = {
  backend: ['client', token('backend')],
  'ui token': ['ui', token('ui')],
  'ui certificate, no token': ['ui', undefined],
  worker: ['worker', token('worker')],
  'client certificate, no token': ['client', undefined],
  'token of another key': ['worker', signed(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 3600)],
  'expired token': ['worker', signed(createPrivateKey(readFileSync(join(authDir, 'keys', kid + '.pem'))), -3600)],
};
const taskQueue = 'roles-probe-' + randomUUID();
const clients = {};
async function client(caller) {
  if (clients[caller]) return clients[caller];
  const [cert, apiKey] = CALLERS[caller];
  const tls = {
    serverNameOverride: 'temporal',
    serverRootCACertificate: readFileSync(join(tlsDir, 'ca.pem')),
    clientCertPair: { crt: readFileSync(join(tlsDir, cert + '.pem')), key: readFileSync(join(tlsDir, cert + '-key.pem')) },
  };
  const connection = await Connection.connect({ address, tls, apiKey, connectTimeout: 10000 });
  return (clients[caller] = new Client({ connection, namespace }));
}
// An open run of the probe type, started with the workers' token.
async function openRun() {
  const workflowId = 'roles-probe-' + randomUUID();
  await (await client('worker')).workflow.start('rolesProbe', { taskQueue, workflowId });
  return workflowId;
}
const ACTIONS = {
  start: (c) => c.workflow.start('rolesProbe', { taskQueue, workflowId: 'roles-probe-' + randomUUID() }),
  describe: async (c) => c.workflow.getHandle(await openRun()).describe(),
  signal: async (c) => c.workflow.getHandle(await openRun()).signal('probe'),
  cancel: async (c) => c.workflow.getHandle(await openRun()).cancel(),
  terminate: async (c) => c.workflow.getHandle(await openRun()).terminate('roles probe'),
  'register a namespace': (c) =>
    c.workflowService.registerNamespace({ namespace: 'roles-' + randomUUID().slice(0, 8), workflowExecutionRetentionPeriod: msToTs('1 day') }),
};
const EXPECTED = {
  backend: { start: 'allowed', describe: 'allowed', signal: 'allowed', cancel: 'allowed', terminate: 'refused', 'register a namespace': 'refused' },
  'ui token': { describe: 'allowed', signal: 'refused', cancel: 'refused', terminate: 'refused' },
  'ui certificate, no token': { describe: 'allowed', signal: 'refused' },
  worker: { start: 'allowed', signal: 'allowed', 'register a namespace': 'refused' },
  'client certificate, no token': { describe: 'refused', start: 'refused' },
  'token of another key': { describe: 'refused', start: 'refused' },
  'expired token': { describe: 'refused', start: 'refused' },
};
// Refused is the authorizer's answer (PERMISSION_DENIED, or UNAUTHENTICATED for a token it cannot
// verify); any other answer got past it.
async function outcome(call) {
  try {
    await call();
    return ['allowed', 'ok'];
  } catch (error) {
    const code = error.code ?? error.cause?.code;
    if (code === status.PERMISSION_DENIED || code === status.UNAUTHENTICATED) return ['refused', status[code]];
    throw error;
  }
}
(async () => {
  let wrong = 0;
  for (const [caller, actions] of Object.entries(EXPECTED))
    for (const [action, expected] of Object.entries(actions)) {
      const [got, answer] = await outcome(async () => ACTIONS[action](await client(caller)));
      if (got !== expected) wrong++;
      console.log(`${got === expected ? '  ' : '! '}${caller}: ${action} -> ${got} (${answer})${got === expected ? '' : ', expected ' + expected}`);
    }
  // The probe's open runs poll nothing and pin no build: they stay until `down -v`.
  process.exit(wrong ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(1); });
ROLES
roles_run() {
  env -i PATH="$PATH" HOME="$HOME" CHECKOUT="$checkout" node "$work/roles.js" \
    "$work/cardflow/tools/deploy/secrets/temporal-tls" "$work/cardflow/tools/deploy/secrets/temporal-auth" \
    "127.0.0.1:$temporal_port" cardflow-staging
}
roles_matrix="$(roles_run 2>&1)" || fail "roles: a caller was not answered as the role table says:
$roles_matrix"
step "roles as run (caller: action -> outcome, the server's answer):"
sed 's/^/    /' <<<"$roles_matrix" >&2

# The server's own calls go through its internal frontend: the hourly reconciliation Schedule the
# workers created (with their token) fires, its run started by the server's scheduler. Triggered
# as an operator would (`cardflow reconcile --schedule` keeps it; a trigger stands in for the hour).
cat >"$work/schedule.js" <<'SCHEDULE'
const { readFileSync } = require('fs');
const { join } = require('path');
const { Client, Connection } = require(process.env.CHECKOUT + '/node_modules/@temporalio/client');
const d = (m) => require(process.env.CHECKOUT + '/dist/' + m);
const [tlsDir, authDir, address, namespace, keysFile] = process.argv.slice(2);
(async () => {
  // The schedule's action carries the workers' encrypted payloads: the stack's codec keys.
  const keys = d('platform/codec/keys').parseKeyFile(readFileSync(keysFile, 'utf8'), 'codec_keys');
  const tls = {
    serverNameOverride: 'temporal',
    serverRootCACertificate: readFileSync(join(tlsDir, 'ca.pem')),
    clientCertPair: { crt: readFileSync(join(tlsDir, 'worker.pem')), key: readFileSync(join(tlsDir, 'worker-key.pem')) },
  };
  const apiKey = readFileSync(join(authDir, 'worker.token'), 'utf8').trim();
  const connection = await Connection.connect({ address, tls, apiKey });
  const client = new Client({ connection, namespace, dataConverter: d('platform/codec/data-converter').createDataConverter(keys) });
  const schedule = client.schedule.getHandle('cardflow-reconciliation');
  const before = await schedule.describe();
  const every = before.spec.intervals?.[0]?.every;
  if (every !== 3600000 && every !== '1h') throw new Error('the schedule is not hourly: ' + JSON.stringify(before.spec));
  await schedule.trigger();
  const deadline = Date.now() + 60000;
  for (;;) {
    const d = await schedule.describe();
    if (d.info.recentActions.length > before.info.recentActions.length) {
      const { workflowId } = d.info.recentActions.at(-1).action.workflow;
      const run = await client.workflow.getHandle(workflowId).describe();
      console.log(`${workflowId} (${run.type}) ${run.status.name}`);
      break;
    }
    if (Date.now() > deadline) throw new Error('the schedule did not fire within 60 s of its trigger');
    await new Promise((r) => setTimeout(r, 1000));
  }
  await connection.close();
})().catch((e) => { console.error(e.message); process.exit(1); });
SCHEDULE
fired="$(env -i PATH="$PATH" HOME="$HOME" CHECKOUT="$checkout" node "$work/schedule.js" \
  "$work/cardflow/tools/deploy/secrets/temporal-tls" "$work/cardflow/tools/deploy/secrets/temporal-auth" \
  "127.0.0.1:$temporal_port" cardflow-staging "$work/cardflow/tools/deploy/secrets/codec_keys" 2>&1)" ||
  fail "the reconciliation Schedule did not fire: $fired"
step "the hourly reconciliation Schedule fired through the server's internal frontend: $fired"

# The stack observes itself: its Prometheus (published on the host's loopback) has every cardflow
# process and the Temporal server up, both workers included, and has evaluated every shipped rule
# without error since the stack came up.
prometheus_check() {
  node -e "
    const base = 'http://127.0.0.1:' + process.argv[1];
    const get = async (path) => (await (await fetch(base + path)).json()).data;
    (async () => {
      const targets = (await get('/api/v1/targets?state=active')).activeTargets;
      const want = { 'cardflow-worker': 2, 'cardflow-webhooks': 1, 'cardflow-codec-server': 1, temporal: 1 };
      const problems = [];
      for (const [job, count] of Object.entries(want)) {
        const up = targets.filter((t) => t.labels.job === job && t.health === 'up').length;
        if (up !== count) problems.push(job + ': ' + up + ' of ' + count + ' up');
      }
      const down = targets.filter((t) => t.health !== 'up').map((t) => t.labels.job + '@' + t.labels.instance + ' ' + t.health + ' ' + t.lastError);
      if (down.length) problems.push('not up: ' + down.join('; '));
      const rules = (await get('/api/v1/rules')).groups.flatMap((g) => g.rules);
      const unevaluated = rules.filter((r) => r.health !== 'ok' || r.lastEvaluation.startsWith('0001'));
      if (!rules.length) problems.push('no rules loaded');
      if (unevaluated.length) problems.push('rules not evaluated: ' + unevaluated.map((r) => r.name + ' ' + r.health + ' ' + (r.lastError || '')).join('; '));
      if (problems.length) { console.log(problems.join(' | ')); process.exit(1); }
      console.log(targets.length + ' targets up, ' + rules.length + ' rules evaluated');
    })().catch((e) => { console.log(String(e)); process.exit(1); });
  " "$prometheus_port"
}
deadline=$((SECONDS + 120))
until observed="$(prometheus_check)"; do
  ((SECONDS < deadline)) || fail "the stack's Prometheus: $observed"
  sleep 5
done
step "Prometheus: $observed"

# --- 6. down and up: the data persists --------------------------------------------------------------------
# Stopped as an operator stops it: each service has its own grace period (compose's 10 s, the
# workers' stop_grace_period), and none may need the SIGKILL that ends an overdue one (exit 137).
step "stop: every service ends by itself within its grace period"
started=$SECONDS
compose stop >&2
stop_secs=$((SECONDS - started))
exits="$(for id in $(podman ps -aq --filter "label=com.docker.compose.project=$project"); do
  podman inspect --format '{{index .Config.Labels "com.docker.compose.service"}}={{.State.ExitCode}}' "$id"
done | sort | tr '\n' ' ')"
step "stopped in ${stop_secs}s; exit codes: $exits"
grep -qE '=137( |$)' <<<"$exits" && fail "a service had to be killed at the end of its grace period: $exits"
step "down (volumes kept), up again"
compose down --timeout 20 >&2
up
step "healthy ${up_secs}s after the second up"
cli result ci-compose-1 --json >/dev/null || fail "the finished onboarding ci-compose-1 is gone after down and up"
step "ci-compose-1 is still in history"
onboard ci-compose-2

# --- 6b. an upgrade: build B beside build A, by the documented steps --------------------------------------
# Build B is this commit with one workflow file changed (a comment: the bundle, and so the build
# id, differ), built as the new release's checkout would build it.
step "upgrade: building build B (image tag next)"
git clone -q --no-local "$work/cardflow" "$work/next"
echo '// release B (CI upgrade drill)' >>"$work/next/workflows/index.ts"
# B also expands the schema (a nullable column), and so requires that migration (numbered after
# any migration a commit ships, so it is always the newest).
rollout_migration=9000000000000_ci-rollout-expand
printf '%s\n' '-- Up Migration' 'ALTER TABLE cardflow_routes ADD COLUMN IF NOT EXISTS ci_rollout_note text;' \
  >"$work/next/platform/storage/migrations/$rollout_migration.sql"
sed -i "s/^export const REQUIRED_MIGRATION = .*/export const REQUIRED_MIGRATION = '$rollout_migration';/" \
  "$work/next/platform/storage/schema-versions.ts"
grep -q "'$rollout_migration'" "$work/next/platform/storage/schema-versions.ts" || fail "build B does not require $rollout_migration"
cp .env "$work/next/.env"
(cd "$work/next" && CARDFLOW_IMAGE_TAG=next docker-compose -f docker-compose.yml build worker >&2)

# Reads what the Temporal client sees, with the checkout's built client: the build a workflow
# runs on, and the holder a parked onboarding's review waits on.
cat >"$work/probe.js" <<'PROBE'
const [what, arg] = process.argv.slice(2);
const d = (m) => require(process.env.CHECKOUT + '/dist/' + m);
const { Client, Connection } = require(process.env.CHECKOUT + '/node_modules/@temporalio/client');
const { loadClientConnectConfig } = require(process.env.CHECKOUT + '/node_modules/@temporalio/envconfig');
(async () => {
  // Address and TLS from TEMPORAL_*, as every cardflow process reads them.
  const connection = await Connection.connect(loadClientConnectConfig().connectionOptions);
  const keys = d('platform/codec/keys').parseKeyFile(require('fs').readFileSync(process.env.CARDFLOW_CODEC_KEYS_FILE, 'utf8'), 'codec_keys');
  const client = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE, dataConverter: d('platform/codec/data-converter').createDataConverter(keys) });
  if (what === 'holder') {
    const handle = client.workflow.getHandle(d('domain/workflow-ids').cardholderWorkflowId(arg));
    const s = await handle.query(d('domain/cardholder-onboarding').cardholderStatusQuery);
    if (s.stage !== 'in_review' || !s.holderId) throw new Error('not in review yet: ' + s.stage);
    console.log(s.holderId);
  } else if (what === 'build') {
    const raw = await client.workflowService.describeWorkflowExecution({ namespace: process.env.TEMPORAL_NAMESPACE, execution: { workflowId: arg } });
    const info = raw.workflowExecutionInfo;
    const status = require(process.env.CHECKOUT + '/node_modules/@temporalio/proto').temporal.api.enums.v1.WorkflowExecutionStatus[info.status].replace('WORKFLOW_EXECUTION_STATUS_', '');
    console.log((info.versioningInfo?.deploymentVersion?.buildId ?? 'none') + ' ' + status);
  }
  await connection.close();
})().catch((e) => { console.error(e.message); process.exit(1); });
PROBE
probe() {
  # shellcheck disable=SC2046 # tls_env prints NAME=path words without spaces
  env -i PATH="$PATH" HOME="$HOME" CHECKOUT="$checkout" $(tls_env) TEMPORAL_ADDRESS="127.0.0.1:$temporal_port" \
    TEMPORAL_API_KEY="$(cat "$work/cardflow/tools/deploy/secrets/temporal-auth/backend.token")" \
    TEMPORAL_NAMESPACE=cardflow-staging CARDFLOW_CODEC_KEYS_FILE="$work/cardflow/tools/deploy/secrets/codec_keys" \
    node "$work/probe.js" "$@"
}
# retry SECONDS command...: runs the command until it succeeds, printing its output; fails after SECONDS.
retry() {
  local deadline=$((SECONDS + $1)) out
  shift
  until out="$("$@" 2>&1)"; do
    ((SECONDS < deadline)) || fail "$* did not succeed: $out"
    sleep 3
  done
  echo "$out"
}
deployment_json() { compose --profile rollout exec -T worker-next node client/cli/cardflow.js deployment list --json; }
# The build id of the version whose routing starts with $1 (current, none, ...), from deployment_json.
build_with_routing() { node -e "const v=JSON.parse(require('fs').readFileSync(0,'utf8')).versions.find((x)=>x.routing.startsWith(process.argv[1])); if(!v) process.exit(1); console.log(v.buildId)" "$1"; }
new_build() { deployment_json | build_with_routing none; }
old_drained() { deployment_json | node -e "const v=JSON.parse(require('fs').readFileSync(0,'utf8')).versions.find((x)=>x.buildId===process.argv[1]); process.exit(v && v.drainage==='drained' ? 0 : 1)" "$OLD_BUILD"; }

# Two onboardings parked in review on build A (the `review.stall` email).
parked=(ci-rollout-a1 ci-rollout-a2)
for ref in "${parked[@]}"; do
  node -e "const c=require('$checkout/client/examples/customer.json'); c.customerRef='$ref'; c.holder.email='review.stall+$ref@example.com'; require('fs').writeFileSync('$work/$ref.json', JSON.stringify(c))"
  cli onboard --file "$work/$ref.json" >&2
done
holders=()
for ref in "${parked[@]}"; do holders+=("$(retry 120 probe holder "$ref")"); done
OLD_BUILD="$(probe build "onboarding-${parked[0]}" | cut -d' ' -f1)"
[[ "$OLD_BUILD" != none ]] || fail "the parked onboarding runs on no build"
step "upgrade: ${#parked[@]} onboardings parked in review on build A $OLD_BUILD"

# The documented steps. Each block runs as printed, its docker-compose lines through CI's compose
# (its additions), with the variables the docs name.
rollout_block() {
  local script
  script="$(awk -v marker="<!-- ci:$1 -->" '
    index($0, marker) { found = 1; next }
    found && /^ *```sh$/ { inside = 1; next }
    inside && /^ *```$/ { exit }
    inside { sub(/^   /, ""); print }' docs/production.md)"
  [[ -n "$script" ]] || fail "docs/production.md has no ci:$1 block"
  step "running docs/production.md ci:$1 as printed:"
  sed 's/^/    /' <<<"$script" >&2
  # A bash of its own, so -e holds (a caller's `until` would switch it off in a subshell), with
  # docker-compose as CI's compose: `command` reaches the real binary, with CI's additions.
  NEW_TAG=next NEW_BUILD="${NEW_BUILD:-}" OLD_BUILD="$OLD_BUILD" CI_CHECKOUT="$checkout" bash -euo pipefail -c '
    docker-compose() { command docker-compose -f docker-compose.yml -f "$CI_CHECKOUT/.ci/compose.ci.yml" --profile staging "$@"; }
    '"$script" >&2
}
# The new build id is what its workers poll as: `deployment list` shows it once they have started.
# The start block runs once its set-current is accepted (the server refuses until B's workers
# polled both queues): its up and list are idempotent, so the block is simply run again.
# B's workers refuse A's schema, naming B's migration; B's set-up job (the documented step)
# applies it; A's workers, restarted on the migrated schema, run beside B's from then on.
out="$(CARDFLOW_NEXT_IMAGE_TAG=next compose --profile rollout run --rm --no-deps -T worker-next \
  timeout 120 node dist/workers/main.js 2>&1)" && fail "build B's worker started on A's schema"
grep -q "migration $rollout_migration is not applied" <<<"$out" ||
  fail "build B's worker did not name its missing migration: $(tail -5 <<<"$out")"
step "upgrade: build B's worker refuses A's schema, naming $rollout_migration"
rollout_block compose-rollout-migrate
applied="$(compose exec -T worker node -e "const { Client } = require('pg');
const c = new Client({ connectionString: require('fs').readFileSync('/run/secrets/database_url', 'utf8').trim() });
c.connect().then(() => c.query('SELECT name FROM pgmigrations ORDER BY id'))
  .then((r) => { console.log(r.rows.map((x) => x.name).join(' ')); return c.end(); })")"
[[ "$applied" == *" $rollout_migration" ]] || fail "pgmigrations holds '$applied', not B's $rollout_migration last"
compose restart worker >&2
wait_healthy
step "upgrade: B's migration applied ($applied); A's workers restarted on it"

NEW_BUILD=""
CARDFLOW_NEXT_IMAGE_TAG=next compose --profile rollout up -d --no-deps --scale worker-next=2 worker-next >&2
NEW_BUILD="$(retry 180 new_build)"
[[ "$NEW_BUILD" != "$OLD_BUILD" ]] || fail "build B has build A's id $OLD_BUILD"
retry 120 rollout_block compose-rollout-start >/dev/null
step "upgrade: build B $NEW_BUILD is current"

# New work goes to B; A's parked onboardings are decided and complete on A.
onboard ci-rollout-b1
[[ "$(probe build onboarding-ci-rollout-b1 | cut -d' ' -f1)" == "$NEW_BUILD" ]] || fail "a new onboarding did not run on build B"
# Both review stages (platform, then bank) pass.
for holder in "${holders[@]}"; do
  for stage in platform bank; do
    compose exec -T worker node client/cli/cardflow.js sandbox review "$holder" --approve --json >"$work/review.json" ||
      fail "the $stage review of $holder was not decided: $(cat "$work/review.json")"
  done
done
for ref in "${parked[@]}"; do
  out="$(timeout 180 bash -c "$(declare -f cli tls_env); checkout='$checkout' work='$work' temporal_port='$temporal_port'; cli result '$ref' --json")" ||
    fail "parked onboarding $ref did not complete after the upgrade: $out"
  ran="$(probe build "onboarding-$ref")"
  [[ "$ran" == "$OLD_BUILD COMPLETED" ]] || fail "$ref did not complete on build A $OLD_BUILD: $ran"
done
step "upgrade: a new onboarding ran on B; the parked ones completed on A"

retry 180 old_drained >/dev/null
retry 120 rollout_block compose-rollout-retire >/dev/null
rollout_block compose-rollout-finish
remaining="$(compose exec -T worker node client/cli/cardflow.js deployment list --json | node -e "console.log(JSON.parse(require('fs').readFileSync(0,'utf8')).versions.map((v)=>v.buildId).join(' '))")"
[[ "$remaining" == "$NEW_BUILD" ]] || fail "after the upgrade the deployment holds '$remaining', not B $NEW_BUILD alone"
step "upgrade: build A drained and retired; the worker service runs B ($remaining)"

# --- 7. down, nothing left --------------------------------------------------------------------------------
compose down -v --remove-orphans --timeout 20 >&2
left="$(leftovers)"
[[ -z "$left" ]] || fail "left behind after down -v: $left"
step "down -v: no container, network or volume of $project left"
echo "compose-e2e: image build ${build_secs}s, Temporal server image build ${server_build_secs}s, image ${size_mb} MB, up to healthy ${first_up_secs}s (first), ${up_secs}s (after down)"
exit 0
}

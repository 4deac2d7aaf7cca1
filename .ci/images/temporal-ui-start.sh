#!/bin/sh
# Renders config/docker.yaml from the environment, as the upstream image does with dockerize and
# its config template (dockerize is not on the Go module proxy). Only the settings
# docker-compose.yml sets are rendered; the rest keep ui-server's defaults.
set -eu
cat >config/docker.yaml <<YAML
temporalGrpcAddress: ${TEMPORAL_ADDRESS:-127.0.0.1:7233}
port: ${TEMPORAL_UI_PORT:-8080}
enableUi: true
defaultNamespace: ${TEMPORAL_DEFAULT_NAMESPACE:-default}
notifyOnNewVersion: false
cors:
  cookieInsecure: ${TEMPORAL_CSRF_COOKIE_INSECURE:-false}
  allowOrigins:
    - "http://localhost:8080"
codec:
  endpoint: "${TEMPORAL_CODEC_ENDPOINT:-}"
  passAccessToken: ${TEMPORAL_CODEC_PASS_ACCESS_TOKEN:-false}
  includeCredentials: ${TEMPORAL_CODEC_INCLUDE_CREDENTIALS:-false}
YAML
# Mutual TLS with the frontend, from the upstream image's variables.
if [ -n "${TEMPORAL_TLS_CA:-}" ]; then
  cat >>config/docker.yaml <<YAML
tls:
  caFile: ${TEMPORAL_TLS_CA}
  certFile: ${TEMPORAL_TLS_CERT:-}
  keyFile: ${TEMPORAL_TLS_KEY:-}
  enableHostVerification: ${TEMPORAL_TLS_ENABLE_HOST_VERIFICATION:-false}
  serverName: "${TEMPORAL_TLS_SERVER_NAME:-}"
YAML
fi
exec ./ui-server --env docker start

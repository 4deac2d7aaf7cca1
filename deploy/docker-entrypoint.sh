#!/bin/sh
# Entry point of the cardflow image: turns secret files into environment variables for the
# settings that have no *_FILE form yet, then runs the command.
#
# CARDFLOW_ENV_FROM_FILE lists variable names (comma or space separated); for each NAME, the file
# named by NAME_FILE (a compose secret under /run/secrets/) is read into NAME and NAME_FILE is
# unset. Values are never printed. A listed secret that is not set, absent, unreadable or empty
# stops the container with exit code 2 (a configuration error, as the processes themselves exit
# on a missing setting: config/startup.ts), naming the variable and the file.
set -eu

fail() {
  echo "docker-entrypoint: configuration: $*" >&2
  exit 2
}

for name in $(printf '%s' "${CARDFLOW_ENV_FROM_FILE:-}" | tr ',' ' '); do
  case "$name" in
    *[!A-Z0-9_]* | [0-9]*) fail "CARDFLOW_ENV_FROM_FILE: \"$name\" is not a variable name" ;;
  esac
  eval "file=\${${name}_FILE:-}"
  [ -n "$file" ] || fail "$name is listed in CARDFLOW_ENV_FROM_FILE but ${name}_FILE is not set"
  [ -e "$file" ] || fail "secret ${name}_FILE=$file does not exist (is the compose secret defined and its file present?)"
  [ -r "$file" ] || fail "secret ${name}_FILE=$file is not readable by uid $(id -u) (make the file readable: deploy/secrets/README.md)"
  value="$(cat "$file")"
  [ -n "$value" ] || fail "secret ${name}_FILE=$file is empty"
  export "$name=$value"
  unset "${name}_FILE"
done
unset value file name

exec "$@"

#!/bin/sh
# Entry point of the cardflow image: turns secret files into environment variables for the
# settings that have no *_FILE form yet, then runs the command.
#
# CARDFLOW_ENV_FROM_FILE lists variable names (comma or space separated); for each NAME, the file
# named by NAME_FILE (a compose secret under /run/secrets/) is read into NAME and NAME_FILE is
# unset. Values are never printed.
set -eu

for name in $(printf '%s' "${CARDFLOW_ENV_FROM_FILE:-}" | tr ',' ' '); do
  case "$name" in
    *[!A-Z0-9_]* | [0-9]*)
      echo "docker-entrypoint: CARDFLOW_ENV_FROM_FILE: \"$name\" is not a variable name" >&2
      exit 64
      ;;
  esac
  eval "file=\${${name}_FILE:-}"
  if [ -z "$file" ]; then
    echo "docker-entrypoint: $name is listed in CARDFLOW_ENV_FROM_FILE but ${name}_FILE is not set" >&2
    exit 64
  fi
  if [ ! -r "$file" ]; then
    echo "docker-entrypoint: ${name}_FILE=$file is not a readable file (is the compose secret mounted?)" >&2
    exit 66
  fi
  value="$(cat "$file")"
  export "$name=$value"
  unset "${name}_FILE"
done
unset value file name

exec "$@"

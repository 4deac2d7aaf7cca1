#!/bin/sh
# `npm ci ARGS` for tools/deploy/Dockerfile, with one known exception: the registry this project's lock
# was made against serves only the builds of the platform that made it for packages with
# per-platform optional dependencies (@swc/core-*, @unrs/resolver-binding-*,
# @oxc-resolver/binding-*), so the lock cannot list the other platforms' ones and `npm ci` rejects
# it as "not in sync" (.ci/run does the same, for the same three families).
# Only for that refusal, install from the lock with `npm install --no-save ARGS`: the same locked
# versions, package.json and the lock untouched. Any other failure fails the build.
set -eu
log="$(mktemp)"
if npm ci "$@" >"$log" 2>&1; then
  cat "$log"
  rm -f "$log"
  exit 0
fi
if grep -q "can only install packages when your package.json and package-lock.json" "$log" &&
  ! grep "^npm error Missing: " "$log" | grep -vqE "Missing: (@swc/core-|@unrs/resolver-binding-|@oxc-resolver/binding-)"; then
  rm -f "$log"
  echo "npm-ci: npm ci refused the lock only for other platforms' optional packages; installing from the lock with npm install --no-save"
  exec npm install --no-save "$@"
fi
cat "$log" >&2
rm -f "$log"
exit 1

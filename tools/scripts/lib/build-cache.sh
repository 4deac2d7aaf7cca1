# Sourced by the scripts that build a Go binary once into a versioned cache folder
# (temporal-cli.sh, temporal-server.sh, .ci/images/ui-server.sh): one build at a time per folder,
# and a staging folder renamed into place, so no caller ever sees a half-built result.

# build_lock NAME DIR: holds DIR/.build.lock (on descriptor 9) until the script exits. A second
# caller waits for the first, then finds its result already in DIR.
build_lock() {
  local name="$1" dir="$2"
  mkdir -p "$dir"
  exec 9>"$dir/.build.lock"
  if command -v flock >/dev/null 2>&1; then
    if ! flock -n 9; then
      echo "$name: another build is running; waiting for it ($dir/.build.lock)..." >&2
      flock 9
    fi
  fi
}

# build_staging DIR: sets `staging` to a fresh folder inside DIR, removed when the script exits.
build_staging() {
  staging="$1/.staging.$$"
  trap 'rm -rf "$staging"' EXIT
  mkdir -p "$staging"
}

# compose_version NAME IMAGE VARIABLE: prints the version docker-compose.yml runs IMAGE at (the
# default of ${VARIABLE:-X.Y.Z} there), so what is built here and what compose runs never drift.
compose_version() {
  local name="$1" image="$2" variable="$3" version
  version="$(sed -n "s|.*image: $image:\${$variable:-\([0-9.]*\)}.*|\1|p" docker-compose.yml)"
  if [[ -z "$version" ]]; then
    echo "$name: no $image:\${$variable:-X.Y.Z} image in docker-compose.yml" >&2
    return 1
  fi
  echo "$version"
}

# require_go NAME WHAT: exits, saying WHAT (what Go is needed for, and any other way), unless Go is installed.
require_go() {
  if ! command -v go >/dev/null 2>&1; then
    echo "$1: $2" >&2
    exit 1
  fi
}

# build_once NAME WHAT DIR NO_GO IS_BUILT BUILD_INTO: makes DIR hold WHAT, built once. IS_BUILT
# (a function of the caller) answers whether DIR is complete; when it is not, Go is required (NO_GO
# says what else would do), the build lock is taken, DIR is checked again (another caller may have
# built it meanwhile), and BUILD_INTO STAGING builds into a fresh staging folder and moves its
# results into DIR. Progress goes to stderr, so the caller's stdout stays the path alone.
build_once() {
  local name="$1" what="$2" dir="$3" no_go="$4" is_built="$5" build_into="$6" started
  if "$is_built"; then
    return 0
  fi
  require_go "$name" "$no_go"
  build_lock "$name" "$dir"
  if "$is_built"; then
    return 0
  fi
  build_staging "$dir"
  echo "$name: building $what with $(go version)..." >&2
  started=$SECONDS
  "$build_into" "$staging"
  echo "$name: built $dir in $((SECONDS - started))s." >&2
}

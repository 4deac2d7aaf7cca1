#!/usr/bin/env bash
# Prints the absolute path of a folder holding the PyPI package `standardwebhooks` (for
# PYTHONPATH), the library docs/other-languages.md's Python example verifies notifications with.
# Installed once with pip into a versioned cache under
# ${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/python/, reused afterwards, also across CI runs.
# Only the path goes to stdout; pip's output goes to stderr.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

readonly VERSION="1.1.0"
cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/python/standardwebhooks-$VERSION"

if [[ ! -f "$cache_dir/standardwebhooks/__init__.py" ]]; then
  # shellcheck source=tools/scripts/lib/build-cache.sh
  source tools/scripts/lib/build-cache.sh
  build_lock python-standardwebhooks "$cache_dir"
  if [[ ! -f "$cache_dir/standardwebhooks/__init__.py" ]]; then
    build_staging "$cache_dir"
    if ! python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --target "$staging" \
      "standardwebhooks==$VERSION" >&2; then
      echo "python-standardwebhooks: pip install standardwebhooks==$VERSION failed (see above)." >&2
      exit 1
    fi
    mv "$staging/standardwebhooks" "$staging"/standardwebhooks-*.dist-info "$cache_dir/"
  fi
fi
realpath "$cache_dir"

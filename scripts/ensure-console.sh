#!/usr/bin/env bash
# The web console (console/, served by the API at /console/): installs its own npm dependencies
# (console/node_modules, from console/package-lock.json; never the root's) when missing or
# installed from another lock, then builds console/dist when its sources changed since the last
# build. Both are skipped when their stamps match, so a start or a test run pays nothing.
#   bash scripts/ensure-console.sh         install if needed, build if stale
#   bash scripts/ensure-console.sh deps    install if needed (npm run dev then watches the sources)
# Fails loudly, saying what failed: the API cannot serve a console that did not build.
set -euo pipefail
cd "$(dirname "$0")/../console"
fail() { echo "[ensure-console] $1" >&2; exit 1; }
# One install or build at a time (test files that need the console may call this in parallel).
if command -v flock >/dev/null 2>&1; then exec 9>.ensure-console.lock; flock 9; fi

lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.installed-lock.sha256
if [ ! -f node_modules/.package-lock.json ] || [ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]; then
  echo "[ensure-console] installing the console's npm dependencies (console/node_modules)" >&2
  { npm ci --no-audit --no-fund >&2 2>/dev/null || npm install --no-audit --no-fund >&2; } \
    || fail "npm install in console/ failed: the console cannot be built (is the npm registry reachable?)"
  sha256sum package-lock.json | cut -d' ' -f1 > "$stamp"
fi
[ "${1:-build}" = "deps" ] && exit 0

source_hash=$(find src index.html vite.config.ts tsconfig.json package-lock.json -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
build_stamp=dist/.source.sha256
if [ ! -f dist/index.html ] || [ "$(cat "$build_stamp" 2>/dev/null)" != "$source_hash" ]; then
  echo "[ensure-console] building the console (console/dist)" >&2
  npx vite build --logLevel warn >&2 || fail "vite build in console/ failed: see the errors above"
  echo "$source_hash" > "$build_stamp"
fi

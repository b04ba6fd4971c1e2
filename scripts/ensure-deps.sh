#!/usr/bin/env bash
# Installs the npm dependencies when node_modules is missing or was installed from another
# package-lock.json. The lock's hash is stamped into node_modules: a checkout that only touched the
# lock's mtime (a new git worktree, a branch switch back and forth) does not reinstall.
set -euo pipefail
cd "$(dirname "$0")/.."
node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Node >= 20.19 is required, found "+process.versions.node); process.exit(1) }'
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.installed-lock.sha256
if [ ! -f node_modules/.package-lock.json ] || [ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]; then
  echo "[ensure-deps] installing npm dependencies" >&2
  # npm ci when the lock is complete; this registry's lockfiles can lack other platforms'
  # optional packages, which npm ci rejects, so fall back to npm install on the same lock.
  npm ci --no-audit --no-fund >&2 2>/dev/null || npm install --no-audit --no-fund >&2
  # npm install may have completed the lock: stamp what node_modules now matches.
  sha256sum package-lock.json | cut -d' ' -f1 > "$stamp"
fi

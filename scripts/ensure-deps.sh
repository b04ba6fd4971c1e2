#!/usr/bin/env bash
# Installs the npm dependencies when node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Node >= 20.19 is required, found "+process.versions.node); process.exit(1) }'
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[ensure-deps] installing npm dependencies" >&2
  # npm ci when the lock is complete; this registry's lockfiles can lack other platforms'
  # optional packages, which npm ci rejects, so fall back to npm install on the same lock.
  npm ci --no-audit --no-fund >&2 2>/dev/null || npm install --no-audit --no-fund >&2
fi

#!/usr/bin/env bash
# Runs a command under Node 24 (the production image's runtime) from the npm registry's `node`
# package, installed once into ~/.cache/ai-workspace/node24 and put first on PATH, e.g.
#   bash scripts/node24.sh npm test
# Checks first that the native modules (Temporal core bridge, argon2) load under it.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${NODE24_PREFIX:-$HOME/.cache/ai-workspace/node24}"
bin="$prefix/node_modules/node/bin"
if ! "$bin/node" -e 'process.exit(process.versions.node.split(".")[0] === "24" ? 0 : 1)' 2>/dev/null; then
  echo "[node24] installing node@24 into $prefix" >&2
  npm install --prefix "$prefix" --no-audit --no-fund --no-save node@24 >&2
fi
export PATH="$bin:$PATH"
bash scripts/ensure-deps.sh
node -e '
  require("@temporalio/core-bridge");
  require("argon2");
  console.error(`[node24] node ${process.version} (ABI ${process.versions.modules}): native modules load`);
'
exec "$@"

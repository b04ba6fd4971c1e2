#!/usr/bin/env bash
# Quick start: the whole service on embedded defaults (Temporal dev server with Web UI, PGlite,
# in-process limits, the built-in dev provider). Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/temporal.sh path >/dev/null
exec node --import tsx src/dev/runner.ts

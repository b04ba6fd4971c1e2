#!/usr/bin/env bash
# Quick start: the whole service on embedded defaults (Temporal dev server with Web UI, PGlite,
# in-process limits, the built-in dev provider). Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# An external Temporal (TEMPORAL_ADDRESS) needs no local CLI. Otherwise build it now if needed;
# without `temporal` and Go the runner starts one through the Temporal SDK's download.
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then bash scripts/temporal.sh prepare; fi
exec node --import tsx src/dev/runner.ts

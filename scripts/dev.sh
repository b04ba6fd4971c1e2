#!/usr/bin/env bash
# Quick start: the whole service on embedded defaults (Temporal dev server with Web UI, PGlite,
# in-process limits, the built-in dev provider). Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# An external Temporal (TEMPORAL_ADDRESS) needs no local CLI. Otherwise build it now if needed;
# without `temporal` and Go the runner starts one through the Temporal SDK's download.
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then bash scripts/temporal.sh prepare; fi
# glibc raises its mmap threshold after each large free, so later large blocks come from the heap
# and leave holes there: a fixed threshold keeps them on mmap (~100 MB less RSS idle, BENCHMARKS.md).
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-262144}"
# The API's young-generation bound (src/node-flags.ts) for the runner's main thread; the worker
# keeps a bound given on the command line, so its workflow threads get the same one.
exec node --max-semi-space-size=8 --import tsx src/dev/runner.ts

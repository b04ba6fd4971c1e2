#!/usr/bin/env bash
# Quick start: the whole service on embedded defaults (Temporal dev server with Web UI, PGlite,
# in-process limits, the built-in dev provider). Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# The web console (/console/): its own dependencies and a first build, then a watcher that
# rebuilds console/dist on every change to its sources, so a reload shows it (the API reads the
# built index.html per request). CONSOLE_WATCH=0 builds once and does not watch.
bash scripts/ensure-console.sh
watcher=
if [ "${CONSOLE_WATCH:-1}" = "1" ]; then
  (cd console && exec ./node_modules/.bin/vite build --watch --mode development --logLevel warn) &
  watcher=$!
fi
# An external Temporal (TEMPORAL_ADDRESS) needs no local CLI. Otherwise build it now if needed;
# without `temporal` and Go the runner starts one through the Temporal SDK's download.
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then bash scripts/temporal.sh prepare; fi
# glibc raises its mmap threshold after each large free, so later large blocks come from the heap
# and leave holes there: a fixed threshold keeps them on mmap (~100 MB less RSS idle, BENCHMARKS.md).
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-262144}"
# The API's young-generation bound (src/node-flags.ts) for the runner's main thread; the worker
# keeps a bound given on the command line, so its workflow threads get the same one.
if [ -z "$watcher" ]; then exec node --max-semi-space-size=8 --import tsx src/dev/runner.ts; fi
# With the watcher the shell stays to stop it: a TERM or INT is passed to the runner (which stops
# cleanly) and the watcher ends with the shell.
node --max-semi-space-size=8 --import tsx src/dev/runner.ts &
runner=$!
trap 'kill -TERM "$runner" 2>/dev/null || true' TERM INT
trap 'kill "$watcher" 2>/dev/null || true' EXIT
status=0
wait "$runner" || status=$?
# A trapped signal interrupts the first wait: wait again for the runner's clean stop.
if kill -0 "$runner" 2>/dev/null; then wait "$runner" || status=$?; fi
exit "$status"

#!/usr/bin/env bash
# The whole test suite: installs what it needs (npm packages, the Temporal CLI, Chromium, curl and
# jq for the README tour), type-checks, lints, checks for import cycles (scripts/check-cycles.sh),
# then runs every unit and integration test on the real stack. Tests use PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set (or
# are found listening on 127.0.0.1; TEST_USE_LOCAL_SERVICES=0 turns that off), and embedded PGlite
# plus the in-process fallbacks otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
# The web console's own dependencies and build (console/dist), which its browser tests load.
bash scripts/ensure-console.sh
bash scripts/ensure-chromium.sh
bash scripts/ensure-tour-tools.sh
# The tests start their own Temporal dev server: the CLI (built now if needed), else the SDK's download.
bash scripts/temporal.sh prepare

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [ "${TEST_USE_LOCAL_SERVICES:-1}" = "1" ]; then
  if [ -z "${DATABASE_URL:-}" ] && port_open 5432; then export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres; fi
  if [ -z "${REDIS_URL:-}" ] && port_open 6379; then export REDIS_URL=redis://127.0.0.1:6379; fi
fi
echo "[test] database: $([ -n "${DATABASE_URL:-}" ] && echo PostgreSQL || echo PGlite); redis: $([ -n "${REDIS_URL:-}" ] && echo Redis || echo in-process fallback)"

echo "[test] typecheck"; npx tsc --noEmit -p tsconfig.json
echo "[test] typecheck console"; (cd console && npx tsc --noEmit -p tsconfig.json)
echo "[test] lint"; npx eslint .
echo "[test] import cycles"; bash scripts/check-cycles.sh
report=$(mktemp)
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@" || status=$?
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' "$report" || true
rm -f "$report"
exit $status

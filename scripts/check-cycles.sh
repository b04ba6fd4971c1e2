#!/usr/bin/env bash
# Fails when the code has an import cycle, type-only imports included (dpdm without -T): a cycle
# means a piece is in the wrong layer (see docs/ARCHITECTURE.md). Checks src/, test/, bench/ and
# scripts/ of the repository, or of the directory given as the first argument (the test of this
# check runs it on a fixture with a deliberate cycle). Then the same one-way rule between folders
# of src/ (scripts/folder-cycles.ts): no folder imports a folder that imports it back, but for the
# pairs on scripts/folder-cycles.allow.json, a list that may only shrink.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "${1:-$repo}"
globs=()
for dir in src test bench scripts; do
  if [ -d "$dir" ]; then globs+=("$dir/**/*.ts"); fi
done
if [ ${#globs[@]} -eq 0 ]; then echo "[check:cycles] nothing to check in $(pwd)" >&2; exit 2; fi
# The repository's tsconfig.json makes dpdm resolve `./x.js` to `./x.ts` as tsc does. An import it
# cannot resolve ("miss") would silently drop an edge, so a miss fails the check too.
status=0
tree=$(mktemp)
trap 'rm -f "$tree"' EXIT
output=$("$repo/node_modules/.bin/dpdm" --no-tree --progress=false --tsconfig "$repo/tsconfig.json" \
  --exit-code circular:1 -o "$tree" "${globs[@]}") || status=$?
printf '%s\n' "$output" | grep -v -e ' skip "node_modules/' -e '^• Warnings$' || true
if printf '%s\n' "$output" | grep -q ' miss "'; then
  echo "[check:cycles] an import could not be resolved (see the miss warnings above)" >&2
  exit 1
fi
folders=0
"$repo/node_modules/.bin/tsx" "$repo/scripts/folder-cycles.ts" "$tree" scripts/folder-cycles.allow.json || folders=$?
[ "$status" -ne 0 ] && exit "$status"
exit $folders

#!/usr/bin/env bash
# Provisions the Temporal CLI (whose `server start-dev` is the dev and test server). Order:
#   1. `temporal` on PATH (or TEMPORAL_CLI_PATH);
#   2. the pinned CLI built once with `go install` into a versioned cache outside the repo
#      (TEMPORAL_CLI_CACHE, else $XDG_CACHE_HOME or ~/.cache, /ai-workspace/temporal-cli/<tag>),
#      reused by later runs and by CI on this machine;
#   3. neither: the caller falls back to the Temporal SDK's download of a dev server
#      (src/dev/temporal-server.ts), which needs the internet.
#
#   scripts/temporal.sh path      print the binary path, building it if needed; exit 3 with a
#                                 message naming what is missing when there is none
#   scripts/temporal.sh prepare   the same for the start scripts, before Node starts: build now if
#                                 possible (its output on the terminal); when there is no binary,
#                                 say that the SDK download comes next and exit 0
set -euo pipefail

VERSIONS=(v1.5.1 v1.5.0 v1.4.1) # newer tags carry a `replace` directive `go install` rejects
CACHE_ROOT="${TEMPORAL_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ai-workspace/temporal-cli}"
UNAVAILABLE=3

log() { echo "[temporal.sh] $*" >&2; }

find_binary() {
  if [ -n "${TEMPORAL_CLI_PATH:-}" ] && [ -x "$TEMPORAL_CLI_PATH" ]; then echo "$TEMPORAL_CLI_PATH"; return 0; fi
  if command -v temporal >/dev/null 2>&1; then command -v temporal; return 0; fi
  for version in "${VERSIONS[@]}"; do
    if [ -x "$CACHE_ROOT/$version/temporal" ]; then echo "$CACHE_ROOT/$version/temporal"; return 0; fi
  done
  return 1
}

build_binary() {
  if ! command -v go >/dev/null 2>&1; then
    log "no Temporal CLI: no 'temporal' on PATH, no build cached in $CACHE_ROOT, and no Go toolchain ('go' not on PATH) to build ${VERSIONS[0]}"
    return $UNAVAILABLE
  fi
  mkdir -p "$CACHE_ROOT"
  exec 9>"$CACHE_ROOT/.build.lock"
  flock 9 # one build at a time on this machine; a concurrent caller reuses the result
  if found=$(find_binary); then echo "$found"; return 0; fi
  local failed=()
  for version in "${VERSIONS[@]}"; do
    log "building Temporal CLI $version with 'go install' into $CACHE_ROOT/$version (first time only; takes a few minutes)"
    local started=$SECONDS
    if GOBIN="$CACHE_ROOT/$version.partial" GOFLAGS=-mod=mod go install "github.com/temporalio/cli/cmd/temporal@$version" >&2 \
      && [ -x "$CACHE_ROOT/$version.partial/temporal" ]; then
      rm -rf "$CACHE_ROOT/$version" && mv "$CACHE_ROOT/$version.partial" "$CACHE_ROOT/$version"
      log "built $version in $((SECONDS - started)) s"
      echo "$CACHE_ROOT/$version/temporal"
      return 0
    fi
    rm -rf "$CACHE_ROOT/$version.partial"
    failed+=("$version")
    log "go install of $version failed; trying the next tag"
  done
  log "no Temporal CLI: no 'temporal' on PATH, and Go could not build it (go install failed for ${failed[*]}: no network to the Go module proxy?)"
  return $UNAVAILABLE
}

case "${1:-path}" in
  path)
    find_binary || build_binary
    ;;
  prepare)
    status=0
    find_binary >/dev/null || build_binary >/dev/null || status=$?
    if [ "$status" -eq "$UNAVAILABLE" ]; then
      log "the Temporal SDK will download a dev server at start instead (needs internet access)"
    elif [ "$status" -ne 0 ]; then
      exit "$status"
    fi
    ;;
  *)
    echo "usage: $0 path|prepare" >&2
    exit 2
    ;;
esac

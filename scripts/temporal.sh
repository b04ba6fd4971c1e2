#!/usr/bin/env bash
# Provisions the Temporal CLI (whose `server start-dev` is the dev and test server) and prints
# its path. Order: `temporal` on PATH; else the pinned CLI built once with `go install` into a
# versioned cache outside the repo (reused by later runs and CI on this machine). Exits 3 with
# a message naming what is missing; the caller may then try the SDK's download.
#
#   scripts/temporal.sh path     print the binary path, building it if needed
set -euo pipefail

VERSIONS=(v1.5.1 v1.5.0 v1.4.1) # newer tags carry a `replace` directive `go install` rejects
CACHE_ROOT="${TEMPORAL_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ai-workspace/temporal-cli}"

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
    log "no 'temporal' on PATH and no Go toolchain to build it (install Go >= 1.23, or put the Temporal CLI on PATH, or allow the SDK to download it)"
    return 3
  fi
  mkdir -p "$CACHE_ROOT"
  exec 9>"$CACHE_ROOT/.build.lock"
  flock 9 # one build at a time on this machine; a concurrent caller reuses the result
  if found=$(find_binary); then echo "$found"; return 0; fi
  for version in "${VERSIONS[@]}"; do
    log "building Temporal CLI $version with 'go install' into $CACHE_ROOT/$version (first time only; takes a few minutes)"
    local started=$SECONDS
    if GOBIN="$CACHE_ROOT/$version.partial" GOFLAGS=-mod=mod go install "github.com/temporalio/cli/cmd/temporal@$version" >&2; then
      rm -rf "$CACHE_ROOT/$version" && mv "$CACHE_ROOT/$version.partial" "$CACHE_ROOT/$version"
      log "built $version in $((SECONDS - started)) s"
      echo "$CACHE_ROOT/$version/temporal"
      return 0
    fi
    rm -rf "$CACHE_ROOT/$version.partial"
    log "go install of $version failed (no network to the Go module proxy?); trying the next tag"
  done
  log "could not build the Temporal CLI: every pinned tag failed to build"
  return 3
}

case "${1:-path}" in
  path)
    find_binary || build_binary
    ;;
  *)
    echo "usage: $0 path" >&2
    exit 2
    ;;
esac

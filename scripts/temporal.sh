#!/usr/bin/env bash
# Provisions the Temporal CLI (whose `server start-dev` is the dev and test server). Order:
#   1. `temporal` on PATH (or TEMPORAL_CLI_PATH), else a CLI already in the versioned cache outside
#      the repo (TEMPORAL_CLI_CACHE, else $XDG_CACHE_HOME or ~/.cache, /ai-workspace/temporal-cli/<tag>);
#   2. the pinned release archive downloaded into that cache and checked against the release's
#      checksums (seconds where the internet is reachable; TEMPORAL_CLI_DOWNLOAD_BASE names another
#      mirror, TEMPORAL_CLI_DOWNLOAD=0 skips it; without a network it gives up within seconds);
#   3. the pinned CLI built once with `go install` into the same cache (a few minutes);
#   4. none: the caller falls back to the Temporal SDK's download of a dev server
#      (src/dev/temporal-server.ts), which needs the internet.
# Whatever is cached is reused by later runs and by CI on this machine.
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
DOWNLOAD_BASE="${TEMPORAL_CLI_DOWNLOAD_BASE:-https://github.com/temporalio/cli/releases/download}"

log() { echo "[temporal.sh] $*" >&2; }

find_binary() {
  if [ -n "${TEMPORAL_CLI_PATH:-}" ] && [ -x "$TEMPORAL_CLI_PATH" ]; then echo "$TEMPORAL_CLI_PATH"; return 0; fi
  if command -v temporal >/dev/null 2>&1; then command -v temporal; return 0; fi
  for version in "${VERSIONS[@]}"; do
    if [ -x "$CACHE_ROOT/$version/temporal" ]; then echo "$CACHE_ROOT/$version/temporal"; return 0; fi
  done
  return 1
}

# The release archive of the first pinned tag for this OS and architecture, checked against the
# release's checksums file, unpacked into the cache. Fails (quietly but for one line) when anything
# is missing: no curl, no network, no such archive, a checksum that does not match.
download_binary() {
  local version="${VERSIONS[0]}" os arch
  if [ "${TEMPORAL_CLI_DOWNLOAD:-1}" = "0" ]; then return 1; fi
  for tool in curl tar sha256sum uname; do command -v "$tool" >/dev/null 2>&1 || return 1; done
  os=$(uname -s | tr '[:upper:]' '[:lower:]')
  case "$(uname -m)" in x86_64 | amd64) arch=amd64 ;; aarch64 | arm64) arch=arm64 ;; *) return 1 ;; esac
  local archive="temporal_cli_${version#v}_${os}_${arch}.tar.gz"
  local sums="temporal_cli_${version#v}_checksums.txt"
  local partial="$CACHE_ROOT/$version.partial" started=$SECONDS
  rm -rf "$partial" && mkdir -p "$partial"
  log "downloading Temporal CLI $version ($archive) into $CACHE_ROOT/$version"
  # Short connect and stall limits: without a network this gives up within seconds, and the Go build comes next.
  local fetch=(curl -fsSL --proto '=https,http' --connect-timeout 5 --speed-limit 1024 --speed-time 15 --max-time 300 --retry 1)
  if ! "${fetch[@]}" -o "$partial/$sums" "$DOWNLOAD_BASE/$version/$sums" 2>/dev/null \
    || ! "${fetch[@]}" -o "$partial/$archive" "$DOWNLOAD_BASE/$version/$archive" 2>/dev/null; then
    log "download of $version failed after $((SECONDS - started)) s (no network?)"
    rm -rf "$partial"; return 1
  fi
  local expected actual
  expected=$(awk -v name="$archive" '$2 == name { print $1 }' "$partial/$sums")
  actual=$(sha256sum "$partial/$archive" | cut -d' ' -f1)
  if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
    log "the downloaded $archive does not match the release's checksum; not using it"
    rm -rf "$partial"; return 1
  fi
  if ! tar -xzf "$partial/$archive" -C "$partial" temporal 2>/dev/null || [ ! -x "$partial/temporal" ]; then
    log "the downloaded $archive holds no 'temporal' executable"
    rm -rf "$partial"; return 1
  fi
  rm -f "$partial/$archive" "$partial/$sums"
  rm -rf "$CACHE_ROOT/$version" && mv "$partial" "$CACHE_ROOT/$version"
  log "downloaded $version in $((SECONDS - started)) s"
  echo "$CACHE_ROOT/$version/temporal"
}

build_binary() {
  mkdir -p "$CACHE_ROOT"
  exec 9>"$CACHE_ROOT/.build.lock"
  flock 9 # one download or build at a time on this machine; a concurrent caller reuses the result
  if found=$(find_binary); then echo "$found"; return 0; fi
  if download_binary; then return 0; fi
  if ! command -v go >/dev/null 2>&1; then
    log "no Temporal CLI: no 'temporal' on PATH, no build cached in $CACHE_ROOT, no download, and no Go toolchain ('go' not on PATH) to build ${VERSIONS[0]}"
    return $UNAVAILABLE
  fi
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

#!/usr/bin/env bash
# Installs what the README's tour runs besides Node (curl and jq) when missing, with Debian's
# apt-get as root: test/readme/tour.test.ts executes the tour as written.
set -euo pipefail
missing=()
for tool in curl jq; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "[ensure-tour-tools] missing ${missing[*]} and cannot install them here (needs root and apt-get): install them for the README tour and its test" >&2
  exit 0
fi
echo "[ensure-tour-tools] installing ${missing[*]}" >&2
{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >&2

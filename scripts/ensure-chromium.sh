#!/usr/bin/env bash
# Installs Debian's Chromium for the browser test of the API reference page (test/api/docs-page.test.ts)
# when it is missing. apt-get needs root: without root or apt the test skips and says why.
set -euo pipefail
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "[ensure-chromium] $CHROMIUM is missing and cannot be installed here (needs root and apt-get): the /docs browser test will be skipped" >&2
  exit 0
fi
echo "[ensure-chromium] installing Debian's chromium" >&2
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >&2; then
  echo "[ensure-chromium] installing chromium failed: the /docs browser test will be skipped" >&2
fi

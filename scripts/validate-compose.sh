#!/usr/bin/env bash
# Validates docker-compose.yml with `docker compose config` (or docker-compose v1, installed
# from Debian's packages when missing and we are root). No Docker engine is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
export SECRET_KEY="${SECRET_KEY:-$(head -c 32 /dev/urandom | base64)}"
if docker compose version >/dev/null 2>&1; then
  docker compose -f docker-compose.yml config -q
elif command -v docker-compose >/dev/null 2>&1 || { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose; } >/dev/null 2>&1; }; then
  docker-compose -f docker-compose.yml config -q
else
  echo "[validate-compose] no docker compose available: skipped" >&2
  exit 0
fi
echo "[validate-compose] docker-compose.yml is valid"

#!/usr/bin/env bash
# The production topology's Temporal server on this machine, without Docker: the server version
# docker-compose.yml pins (temporalio/auto-setup), built from its Go module with `go install`
# together with its SQL schema tool, cached by version outside the repo like the CLI
# (scripts/temporal.sh); its stores are two PostgreSQL databases on the local server, created and
# migrated with the schema tool; the namespace and the search attributes the workflows set are
# registered with the CLI. Used by `TEMPORAL_BACKEND=cluster npm run bench:automations`.
#
#   scripts/temporal-cluster.sh prepare   build the binaries (first time: several minutes) and
#                                         create or migrate the databases
#   scripts/temporal-cluster.sh start     prepare, start the server in the background, wait until
#                                         it serves, register the namespace and search attributes;
#                                         prints `<address> <pid>` on stdout
#   scripts/temporal-cluster.sh stop      stop the server this script started
#
# Settings (environment):
#   TEMPORAL_SERVER_VERSION   server module version (default: the compose file's auto-setup tag)
#   TEMPORAL_CLUSTER_PORT     frontend gRPC port (default 7333; history +1, matching +2, worker +6,
#                             HTTP +10, membership +100..+106; below 32668: the server keeps
#                             membership ports in a smallint column)
#   TEMPORAL_CLUSTER_DB       database name prefix (default temporal_cluster: <prefix> and <prefix>_visibility)
#   PGHOST PGPORT PGUSER PGPASSWORD   the PostgreSQL server (default 127.0.0.1 5432 postgres)
#   TEMPORAL_CLUSTER_DIR      where the config, log and pid file live (default: the cache's run/ folder)
#   TEMPORAL_CLUSTER_DYNAMIC_CONFIG  the server's dynamic config (default: the compose service's,
#                             deploy/temporal/dynamicconfig.yaml; /dev/null for the server's defaults)
#   GOGC                      the server's Go collector (default 400, as the compose service)
set -euo pipefail
cd "$(dirname "$0")/.."

COMPOSE_TAG=$(sed -n 's|.*image: temporalio/auto-setup:\([0-9.]*\).*|\1|p' docker-compose.yml | head -1)
VERSION="v${TEMPORAL_SERVER_VERSION:-${COMPOSE_TAG:-1.29.1}}"
VERSION="v${VERSION#v}"
CACHE="${TEMPORAL_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ai-workspace/temporal-server}/$VERSION"
RUN_DIR="${TEMPORAL_CLUSTER_DIR:-$CACHE/run}"
PORT="${TEMPORAL_CLUSTER_PORT:-7333}"
DB="${TEMPORAL_CLUSTER_DB:-temporal_cluster}"
PG_HOST="${PGHOST:-127.0.0.1}"
PG_PORT="${PGPORT:-5432}"
PG_USER="${PGUSER:-postgres}"
PG_PASSWORD="${PGPASSWORD:-}"
SEARCH_ATTRIBUTES=(OrganizationId AutomationId TriggerType)

log() { echo "[temporal-cluster] $*" >&2; }

if [ "$PORT" -gt 32667 ]; then log "TEMPORAL_CLUSTER_PORT must be below 32668 (the server stores ports as smallint), not $PORT"; exit 2; fi

# The server and its schema tool, built once per version (a lock: one build at a time on this machine).
build() {
  mkdir -p "$CACHE"
  exec 8>"$CACHE/.build.lock"
  flock 8
  if [ ! -x "$CACHE/temporal-server" ] || [ ! -x "$CACHE/temporal-sql-tool" ]; then
    command -v go >/dev/null 2>&1 || { log "Go is needed to build the Temporal server $VERSION (not on PATH)"; exit 3; }
    local started=$SECONDS
    log "building Temporal server $VERSION and its SQL tool with 'go install' into $CACHE (first time only; several minutes)"
    local bin="$CACHE/.bin"
    rm -rf "$bin" && mkdir -p "$bin"
    GOBIN="$bin" go install "go.temporal.io/server/cmd/server@$VERSION" "go.temporal.io/server/cmd/tools/sql@$VERSION"
    mv "$bin/server" "$CACHE/temporal-server"
    mv "$bin/sql" "$CACHE/temporal-sql-tool"
    rm -rf "$bin"
    log "built $VERSION in $((SECONDS - started)) s"
  fi
  flock -u 8
}

# The module's schema files (versioned migrations), from the Go module cache `go install` filled.
schema_dir() {
  local dir
  dir="$(go env GOMODCACHE)/go.temporal.io/server@$VERSION/schema/postgresql/v12"
  if [ ! -d "$dir" ]; then
    GOFLAGS=-mod=mod go mod download "go.temporal.io/server@$VERSION" >/dev/null
  fi
  echo "$dir"
}

sql_tool() {
  "$CACHE/temporal-sql-tool" --plugin postgres12 --endpoint "$PG_HOST" --port "$PG_PORT" --user "$PG_USER" --password "$PG_PASSWORD" "$@"
}

# Creates the two databases if missing and brings their schemas to this version (idempotent).
migrate() {
  local schemas
  schemas=$(schema_dir)
  for pair in "$DB:temporal" "${DB}_visibility:visibility"; do
    local name="${pair%%:*}" kind="${pair##*:}"
    sql_tool --database "$name" create-database >/dev/null 2>&1 || true
    # setup-schema -v 0.0 only records the version table on an empty database; update-schema applies the rest.
    sql_tool --database "$name" setup-schema -v 0.0 >/dev/null 2>&1 || true
    if ! sql_tool --database "$name" update-schema --schema-dir "$schemas/$kind/versioned" >"$CACHE/migrate.log" 2>&1; then
      log "migrating $name failed:"; tail -20 "$CACHE/migrate.log" >&2; exit 1
    fi
  done
}

render_config() {
  mkdir -p "$RUN_DIR/config/dynamicconfig"
  # The compose server's dynamic config (TEMPORAL_CLUSTER_DYNAMIC_CONFIG names another file, for
  # experiments; /dev/null: the server's defaults).
  cp "${TEMPORAL_CLUSTER_DYNAMIC_CONFIG:-deploy/temporal/dynamicconfig.yaml}" "$RUN_DIR/config/dynamicconfig/cluster.yaml"
  store() {
    cat <<YAML
      sql:
        pluginName: "postgres12"
        databaseName: "$1"
        connectAddr: "$PG_HOST:$PG_PORT"
        connectProtocol: "tcp"
        user: "$PG_USER"
        password: "$PG_PASSWORD"
        maxConns: $2
        maxIdleConns: $2
        maxConnLifetime: "1h"
YAML
  }
  cat >"$RUN_DIR/config/cluster.yaml" <<YAML
# Rendered by scripts/temporal-cluster.sh; the compose server's shape (auto-setup, postgres12, 4 shards).
log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:
$(store "$DB" 20)
    visibility:
$(store "${DB}_visibility" 10)
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
services:
  frontend:
    rpc: { grpcPort: $PORT, membershipPort: $((PORT + 100)), bindOnLocalHost: true, httpPort: $((PORT + 10)) }
  history:
    rpc: { grpcPort: $((PORT + 1)), membershipPort: $((PORT + 101)), bindOnLocalHost: true }
  matching:
    rpc: { grpcPort: $((PORT + 2)), membershipPort: $((PORT + 102)), bindOnLocalHost: true }
  worker:
    rpc: { grpcPort: $((PORT + 6)), membershipPort: $((PORT + 106)), bindOnLocalHost: true }
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:$PORT"
dcRedirectionPolicy:
  policy: "noop"
dynamicConfigClient:
  filepath: "$RUN_DIR/config/dynamicconfig/cluster.yaml"
  pollInterval: "10s"
YAML
}

cli() { "$(bash scripts/temporal.sh path)" "$@" --address "127.0.0.1:$PORT"; }

start() {
  build
  migrate
  stop_server quiet
  render_config
  log "starting Temporal server $VERSION on 127.0.0.1:$PORT (log: $RUN_DIR/server.log)"
  # GOGC as the compose service sets it (unless the environment does).
  GOGC="${GOGC:-400}" nohup "$CACHE/temporal-server" --root "$RUN_DIR" --config config --env cluster --allow-no-auth start >"$RUN_DIR/server.log" 2>&1 &
  local pid=$!
  echo "$pid" >"$RUN_DIR/server.pid"
  for _ in $(seq 1 120); do
    if ! kill -0 "$pid" 2>/dev/null; then log "the server exited; its log:"; tail -30 "$RUN_DIR/server.log" >&2; exit 1; fi
    if cli operator cluster health 2>/dev/null | grep -q SERVING; then break; fi
    sleep 1
  done
  cli operator cluster health 2>/dev/null | grep -q SERVING || { log "not serving after 120 s"; exit 1; }
  cli operator namespace describe --namespace default >/dev/null 2>&1 \
    || cli operator namespace create --namespace default --retention 72h >/dev/null
  for name in "${SEARCH_ATTRIBUTES[@]}"; do
    for _ in $(seq 1 30); do
      if cli operator search-attribute list --namespace default 2>/dev/null | grep -qw "$name"; then break; fi
      cli operator search-attribute create --namespace default --name "$name" --type Keyword >/dev/null 2>&1 || sleep 1
    done
  done
  # Registered is not yet usable: the frontend reads search attributes from a cache it refreshes
  # on its own schedule. A probe workflow that sets them all is accepted once it has.
  local probe_args=() started=$SECONDS
  for name in "${SEARCH_ATTRIBUTES[@]}"; do probe_args+=(--search-attribute "$name=\"probe\""); done
  until cli workflow start --namespace default --type probe --task-queue temporal-cluster-probe \
      --workflow-id "temporal-cluster-probe-$RANDOM$RANDOM" --execution-timeout 1s "${probe_args[@]}" >/dev/null 2>&1; do
    if [ $((SECONDS - started)) -ge 120 ]; then log "search attributes not usable after 120 s"; exit 1; fi
    sleep 1
  done
  log "serving, search attributes usable after $((SECONDS - started)) s"
  echo "127.0.0.1:$PORT $pid"
}

stop_server() {
  local pidfile="$RUN_DIR/server.pid"
  [ -f "$pidfile" ] || return 0
  local pid
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    [ "${1:-}" = quiet ] || log "stopping the server (pid $pid)"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

case "${1:-}" in
  prepare) build; migrate ;;
  start) start ;;
  stop) stop_server ;;
  *) echo "usage: $0 prepare|start|stop" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# leasecron side by side with ShedLock, db-scheduler and Quartz on one PostgreSQL this script starts
# (its own throwaway cluster: port $BENCH_PG_PORT, folder $BENCH_DB_ROOT; a test server already running
# elsewhere is left alone). Writes bench/results/RESULTS.md, results.json and the PNG charts.
#
#   sudo scripts/bench.sh                      # the full run: 1,000 and 10,000 jobs, 1 and 3 replicas, failover
#   sudo scripts/bench.sh --jobs 1000 --replicas 1,3 --schedulers leasecron,quartz --failover false
#
# Options (all optional): --jobs 1000,10000  --replicas 1,3  --schedulers leasecron,shedlock,db-scheduler,quartz
#   --period 10,30 (seconds between instants, one per job count; divides 60)
#   --warmup 20,3 (instants before measuring, one per job count)  --instants 10,3 (measured, one per job count)
#   --failover true|false  --failover-trials 1  --out bench/results
# Set BENCH_SKIP_BUILD=1 to reuse the last build; BENCH_PG_OPTS adds server options (e.g.
# "-c shared_preload_libraries=pg_stat_statements" to see where PostgreSQL's time goes). Run it on a quiet machine: it measures CPU and latency.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/java-home.sh

BENCH_DB_ROOT=${BENCH_DB_ROOT:-/tmp/leasecron-bench-db}
BENCH_PG_PORT=${BENCH_PG_PORT:-55462}

if [ "$(id -u)" != 0 ]; then
  echo "bench.sh starts its own PostgreSQL as the postgres user: run it as root (sudo)" >&2
  exit 1
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "installing postgresql from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PG_BIN=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
PG_DIR=$BENCH_DB_ROOT/pg

stop_pg() {
  if [ -f "$PG_DIR/data/postmaster.pid" ]; then
    su postgres -c "$PG_BIN/pg_ctl -D $PG_DIR/data -m fast -w stop" >/dev/null 2>&1 || true
  fi
}
stop_pg
rm -rf "$PG_DIR"; mkdir -p "$PG_DIR"; chmod 755 "$BENCH_DB_ROOT"; chown postgres:postgres "$PG_DIR"
su postgres -c "$PG_BIN/initdb -D $PG_DIR/data -U postgres --auth=trust" >/dev/null
su postgres -c "$PG_BIN/pg_ctl -D $PG_DIR/data -o '-p $BENCH_PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200 ${BENCH_PG_OPTS:-}' -l $PG_DIR/log -w start" >/dev/null
trap stop_pg EXIT
su postgres -c "psql -h 127.0.0.1 -p $BENCH_PG_PORT -U postgres -qc 'CREATE DATABASE bench'"
echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$BENCH_PG_PORT ($PG_DIR)"

if [ "${BENCH_SKIP_BUILD:-}" != 1 ] || [ ! -f bench/target/classpath.txt ] || [ ! -d bench/target/plugins ]; then
  ./mvnw -B -ntp -q -pl bench -am package -DskipTests
  # The sustained cells run the daemon as deployed, with the example plugin as the jobs' type: it is
  # built on its own against the installed jobs API, as a plugin author builds one.
  ./mvnw -B -ntp -q -N install
  ./mvnw -B -ntp -q -pl jobs-api install -DskipTests
  ./mvnw -B -ntp -q -f examples/hello-plugin/pom.xml package
  mkdir -p bench/target/plugins
  cp examples/hello-plugin/target/hello-plugin-*.jar bench/target/plugins/
fi

java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" dev.leasecron.bench.Bench \
  --url "jdbc:postgresql://127.0.0.1:$BENCH_PG_PORT/bench" --user postgres \
  --pgdata "$PG_DIR/data" --pg-version "$("$PG_BIN/postgres" --version | awk '{print $3}')" \
  --jar scheduler-app/target/leasecron.jar --plugins bench/target/plugins "$@"

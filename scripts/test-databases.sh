#!/usr/bin/env bash
# Starts throwaway PostgreSQL and MariaDB servers on loopback for the test suite, installing them
# from Debian's packages when absent (no Docker, no systemd needed), and writes the environment the
# tests read to $LEASECRON_DB_ENV (default: $DB_ROOT/env). Usage:
#   scripts/test-databases.sh start     # then: source "$DB_ROOT/env"
#   scripts/test-databases.sh stop
set -euo pipefail

DB_ROOT=${DB_ROOT:-/tmp/leasecron-test-db}
PG_PORT=${PG_PORT:-55432}
MARIADB_PORT=${MARIADB_PORT:-33306}
PG_BIN=""

need_root() {
  if [ "$(id -u)" != 0 ]; then
    echo "test-databases.sh installs and starts servers as root (it runs them as postgres/mysql); run it with sudo" >&2
    exit 1
  fi
}

install_servers() {
  local missing=()
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
  command -v faketime >/dev/null 2>&1 || missing+=(faketime)   # ClockSkewIT skews replica clocks with libfaketime
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]} from Debian's packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  PG_BIN=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
}

start_postgres() {
  local dir=$DB_ROOT/pg
  rm -rf "$dir"; mkdir -p "$dir"; chown postgres:postgres "$dir"
  su postgres -c "$PG_BIN/initdb -D $dir/data -U postgres --auth=trust" >/dev/null
  su postgres -c "$PG_BIN/pg_ctl -D $dir/data -o '-p $PG_PORT -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300' -l $dir/log -w start" >/dev/null
  su postgres -c "psql -h 127.0.0.1 -p $PG_PORT -U postgres -qc 'CREATE DATABASE leasecron_test'"
  echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT"
}

start_mariadb() {
  local dir=$DB_ROOT/mariadb
  rm -rf "$dir"; mkdir -p "$dir/data"; chown -R mysql:mysql "$dir"
  mariadb-install-db --user=mysql --datadir="$dir/data" --auth-root-authentication-method=normal >/dev/null
  mariadbd --user=mysql --datadir="$dir/data" --socket="$dir/sock" --pid-file="$dir/pid" \
    --bind-address=127.0.0.1 --port="$MARIADB_PORT" --max-connections=300 \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_bin >"$dir/log" 2>&1 &
  for _ in $(seq 1 100); do
    mariadb-admin --socket="$dir/sock" -uroot ping >/dev/null 2>&1 && break
    sleep 0.2
  done
  mariadb --socket="$dir/sock" -uroot -e "CREATE DATABASE leasecron_test;
    CREATE USER 'leasecron'@'127.0.0.1' IDENTIFIED BY 'leasecron';
    GRANT ALL ON leasecron_test.* TO 'leasecron'@'127.0.0.1';
    GRANT ALL ON \`test\\_%\`.* TO 'leasecron'@'127.0.0.1';"
  echo "MariaDB $(mariadbd --version | awk '{print $3}') on 127.0.0.1:$MARIADB_PORT"
}

write_env() {
  cat >"${LEASECRON_DB_ENV:-$DB_ROOT/env}" <<ENV
export LEASECRON_TEST_POSTGRES_URL='jdbc:postgresql://127.0.0.1:$PG_PORT/leasecron_test'
export LEASECRON_TEST_POSTGRES_USER=postgres
export LEASECRON_TEST_POSTGRES_PASSWORD=
export LEASECRON_TEST_MARIADB_URL='jdbc:mariadb://127.0.0.1:$MARIADB_PORT/leasecron_test?sslMode=disable'
export LEASECRON_TEST_MARIADB_USER=leasecron
export LEASECRON_TEST_MARIADB_PASSWORD=leasecron
export LEASECRON_TEST_PG_BIN='$PG_BIN'
export LEASECRON_TEST_DB_ROOT='$DB_ROOT'
ENV
}

stop_all() {
  if [ -d "$DB_ROOT/pg/data" ]; then
    PG_BIN=${PG_BIN:-$(dirname "$(ls -d /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -n 1)")}
    su postgres -c "$PG_BIN/pg_ctl -D $DB_ROOT/pg/data -m fast -w stop" >/dev/null 2>&1 || true
  fi
  if [ -S "$DB_ROOT/mariadb/sock" ]; then
    mariadb-admin --socket="$DB_ROOT/mariadb/sock" -uroot shutdown >/dev/null 2>&1 || true
  fi
}

case "${1:-start}" in
  start)
    need_root
    install_servers
    stop_all
    mkdir -p "$DB_ROOT"; chmod 755 "$DB_ROOT"
    start_postgres
    start_mariadb
    write_env
    ;;
  stop)
    stop_all
    ;;
  *)
    echo "usage: $0 start|stop" >&2; exit 2 ;;
esac

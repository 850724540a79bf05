#!/usr/bin/env bash
# Claim + finish round trips per second and their latency on SQLite, PostgreSQL and MariaDB.
# Starts throwaway servers like CI does (as root), unless LEASECRON_TEST_*_URL are already set.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/java-home.sh
if [ -z "${LEASECRON_TEST_POSTGRES_URL:-}" ]; then
  export DB_ROOT=${DB_ROOT:-$(mktemp -d /tmp/leasecron-bench.XXXXXX)}
  trap 'scripts/test-databases.sh stop' EXIT
  scripts/test-databases.sh start
  . "$DB_ROOT/env"
fi
export LEASECRON_TEST_REQUIRE_SERVERS=true
./mvnw -B -ntp -pl lease -am test -Dtest=ClaimFinishBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtest.excludedGroups= | sed -n '/^claim an instant/,/^\[INFO\]/p' | grep -v '^\[INFO\]'

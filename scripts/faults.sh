#!/usr/bin/env bash
# The fault harness: replicas of the packaged daemon against PostgreSQL and MariaDB servers of its own
# (ports 55442/33316, a proxy on a free port, data under faults/target/runs), under a seeded schedule of
# kill -9, SIGSTOP, database restarts, stalls and drops, clock skew and rolling restarts; then the
# invariant checker. Exits non-zero on any violation and prints the seed to replay.
#   scripts/faults.sh                                   # 3 seeds, both databases, 30 s of faults each
#   scripts/faults.sh --seeds 50 --db both              # the long version
#   scripts/faults.sh --db mariadb --seed 17 --seeds 1  # replay one seed
# Needs root (the servers run as postgres/mysql), PostgreSQL 15+, MariaDB and libfaketime installed.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/java-home.sh

if [ ! -f scheduler-app/target/leasecron.jar ] || [ ! -f faults/target/leasecron-faults.jar ] || [ "${FAULTS_BUILD:-}" = 1 ]; then
  ./mvnw -B -ntp -q -pl faults -am package -DskipTests
fi
exec "$JAVA_HOME/bin/java" -jar faults/target/leasecron-faults.jar "$@"

#!/usr/bin/env bash
# Builds leasecron if needed and runs the daemon with examples/jobs.yaml on the embedded SQLite
# default (./leasecron.db). Round logs are JSON lines on stdout; Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/java-home.sh
jar=scheduler-app/target/leasecron.jar
if [ ! -f "$jar" ] || [ -n "$(find . -path ./scheduler-app/target -prune -o -name '*.java' -newer "$jar" -print -quit)" ]; then
  ./mvnw -B -ntp -q install -DskipTests
fi
exec java -jar "$jar" run --config examples/jobs.yaml "$@"

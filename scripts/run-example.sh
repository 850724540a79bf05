#!/usr/bin/env bash
# Builds leasecron if needed and runs the daemon with examples/jobs.yaml on the embedded SQLite
# default (./leasecron.db). Round logs are JSON lines on stdout; Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/java-home.sh
jar=scheduler-app/target/leasecron.jar
# What goes into the jar: the app and the modules it depends on, sources, resources and poms.
inputs=(pom.xml jobs-api lease config scheduler-app)
if [ ! -f "$jar" ] || [ -n "$(find "${inputs[@]}" -path '*/target' -prune -o -type f -newer "$jar" -print -quit)" ]; then
  # package, not install or verify: the jar is all it needs, and a phase past package would run the
  # end-to-end tests (Failsafe runs them despite -DskipTests since 3.6) and write to ~/.m2.
  ./mvnw -B -ntp -q -pl scheduler-app -am package -DskipTests
fi
exec java -jar "$jar" run --config examples/jobs.yaml "$@"

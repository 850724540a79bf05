#!/usr/bin/env bash
# Builds leasecron if needed and runs the daemon with examples/jobs.yaml on the embedded SQLite
# default (./leasecron.db). Round logs are JSON lines on stdout; Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/java-home.sh
jar=scheduler-app/target/leasecron.jar
# What goes into the jar: the main sources and resources of the app and the modules it uses, and their poms.
inputs=(pom.xml)
for module in jobs-api lease config scheduler-app; do
  inputs+=("$module/pom.xml" "$module/src/main")
done
if [ ! -f "$jar" ] || [ -n "$(find "${inputs[@]}" -newer "$jar" -print -quit)" ]; then
  # package, not install: the jar is all it needs, and install would also run the end-to-end tests
  # unless skipped and write every module into ~/.m2.
  ./mvnw -B -ntp -q -pl scheduler-app -am package -DskipTests
fi
exec java -jar "$jar" run --config examples/jobs.yaml "$@"

# Sourced by the project's scripts: points JAVA_HOME at a JDK 25 and puts it first on PATH.
# Order: an already-set JAVA_HOME that is 25+, the usual install folders, then Debian's package.

java_major() {
  "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

find_jdk25() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ] && [ "$(java_major "$JAVA_HOME")" -ge 25 ] 2>/dev/null; then
    echo "$JAVA_HOME"; return 0
  fi
  for dir in /usr/lib/jvm/temurin-25* /usr/lib/jvm/java-25*; do
    if [ -x "$dir/bin/javac" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

if ! JAVA_HOME=$(find_jdk25); then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "No JDK 25 found; trying Debian's openjdk-25-jdk-headless" >&2
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-25-jdk-headless >/dev/null 2>&1 || true
  fi
  if ! JAVA_HOME=$(find_jdk25); then
    echo "leasecron needs a JDK 25: install one (e.g. Temurin 25 or openjdk-25-jdk-headless) and set JAVA_HOME to it." >&2
    exit 1
  fi
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"

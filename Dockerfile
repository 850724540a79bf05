# syntax=docker/dockerfile:1
# The leasecron daemon. Build from the repository root:
#   docker build -t leasecron:dev --build-arg VERSION=0.1.0 --build-arg REVISION="$(git rev-parse HEAD)" .
# Run it with a read-only root file system; it writes only to the data volume and /tmp:
#   docker run --read-only --tmpfs /tmp -v leasecron-data:/var/lib/leasecron -p 8080:8080 leasecron:dev
# The jobs file is /etc/leasecron/jobs.yaml (examples/jobs.yaml until you mount your own over it).
# Release builds can pin the bases by digest: --build-arg JRE_IMAGE=eclipse-temurin:25-jre-noble@sha256:...

# The bases name the Ubuntu release (noble) as well as Java's, so that the apt packages below and
# the C library that sqlite-jdbc's native code links against do not change under a rebuild.
ARG JDK_IMAGE=eclipse-temurin:25-jdk-noble
ARG JRE_IMAGE=eclipse-temurin:25-jre-noble

FROM ${JDK_IMAGE} AS build
WORKDIR /src
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
COPY jobs-api/ jobs-api/
COPY lease/ lease/
COPY config/ config/
COPY scheduler-app/ scheduler-app/
# The cache mount keeps Maven's downloads (and the wrapper's Maven) between builds without putting
# them in a layer. -DskipTests: the suite needs database servers and runs in CI, not here.
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -ntp -pl scheduler-app -am package -DskipTests

FROM ${JRE_IMAGE}
ARG JRE_IMAGE
ARG VERSION=0.1.0-SNAPSHOT
ARG REVISION=unknown
LABEL org.opencontainers.image.title="leasecron" \
      org.opencontainers.image.description="Distributed cron scheduler for the JVM: each instant of each job runs on exactly one replica sharing a SQL database." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="${JRE_IMAGE}"

# tini as PID 1 reaps the orphans that shell jobs leave behind and passes SIGTERM on to the JVM.
# curl serves the HEALTHCHECK below and `kubectl exec ... curl localhost:8080/metrics`.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tini curl \
 && rm -rf /var/lib/apt/lists/*

# uid 10001 in group 0, which owns the data folder (mode 775): the image also runs under an
# arbitrary uid in group 0, as OpenShift assigns, and Kubernetes' fsGroup covers mounted volumes.
RUN useradd --system --uid 10001 --gid 0 --home-dir /var/lib/leasecron --no-create-home \
        --shell /usr/sbin/nologin leasecron \
 && install -d -o 10001 -g 0 -m 775 /var/lib/leasecron \
 && install -d -m 755 /opt/leasecron/plugins /etc/leasecron

COPY --from=build /src/scheduler-app/target/leasecron.jar /opt/leasecron/leasecron.jar
COPY examples/jobs.yaml /etc/leasecron/jobs.yaml
COPY scheduler-app/src/main/jib/opt/leasecron/plugins/README.txt /opt/leasecron/plugins/README.txt
COPY --chown=10001:0 scheduler-app/src/main/jib/var/lib/leasecron/README.txt /var/lib/leasecron/README.txt

# The working directory is the data volume, so the embedded SQLite default (./leasecron.db) and
# the default plugins/ folder resolve there; sqlite-jdbc unpacks its native library into /tmp.
WORKDIR /var/lib/leasecron
VOLUME ["/var/lib/leasecron"]
USER 10001:0
EXPOSE 8080

# Port 8080 is http.port of the default jobs file; change both together.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
    CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8080/healthz"]

# Exec form, so the signal reaches tini and tini hands it to the JVM. Without tini's -g: SIGTERM
# must reach the JVM alone, which lets running shell jobs finish within shutdownGrace before it
# cuts them short; -s keeps reaping working under `docker run --init`, where tini is not PID 1.
# The heap is 75% of the container's memory limit, from the start: a heap left to size itself is
# shrunk by G1 to a few tens of MiB between bursts, and then collected in nearly every burst of
# rounds. Extra flags go in JAVA_TOOL_OPTIONS. G1 is named because under 1,792 MiB or 2 CPUs (the
# chart's 512 MiB limit) the JVM would pick the serial collector, whose pauses in a burst of rounds
# are longer (bench/README.md, "The collector"). No other collector or JIT flag: under a sustained
# load the ones once set here made every replica slower (bench/README.md, "Sustained load").
ENTRYPOINT ["/usr/bin/tini", "-s", "--", "java", "-XX:+UseG1GC", "-XX:InitialRAMPercentage=75", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED", "-jar", "/opt/leasecron/leasecron.jar"]
CMD ["run", "--config", "/etc/leasecron/jobs.yaml", "--plugins", "/opt/leasecron/plugins"]

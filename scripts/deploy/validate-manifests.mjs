// Checks every object of rendered manifests (multi-document YAML files, e.g. `helm template`
// output) against the Kubernetes API's OpenAPI schemas shipped by kubernetes-models, and the
// ServiceMonitor against the Prometheus Operator's. An object of a kind with no known schema is an
// error, so that a new kind in the chart cannot go unchecked.
// Usage: node validate-manifests.mjs FILE...   (scripts/check-deploy.sh copies it next to its
// node_modules, since ES modules resolve packages from their own folder.)
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const SCHEMA_PACKAGES = [
  (apiVersion) => `kubernetes-models/${apiVersion}`,
  (apiVersion) => `@kubernetes-models/prometheus-operator/${apiVersion}`,
];

async function modelFor(apiVersion, kind) {
  for (const modulePath of SCHEMA_PACKAGES) {
    try {
      const models = await import(modulePath(apiVersion));
      if (models[kind]) return models[kind];
    } catch (e) {
      if (e.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED' && e.code !== 'ERR_MODULE_NOT_FOUND') throw e;
    }
  }
  return null;
}

let checked = 0;
const problems = [];
for (const file of process.argv.slice(2)) {
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (doc.errors.length) {
      problems.push(`${file}: YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
      continue;
    }
    const object = doc.toJS();
    if (object == null) continue;
    const where = `${file}: ${object.kind}/${object.metadata?.name}`;
    const Model = await modelFor(object.apiVersion, object.kind);
    if (!Model) {
      problems.push(`${where}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
      checked++;
    } catch (e) {
      problems.push(`${where}: ${e.message}`);
    }
  }
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
if (checked === 0) {
  console.error('no objects to check');
  process.exit(1);
}
console.log(`${checked} objects match their schemas`);

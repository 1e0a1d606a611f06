// The rules of scripts/deploy/validate.mjs that look across a rendered release: namespaces, the API Ingress against
// the gateway's own limits, KEDA's view of the broker and its workers' grace, spreading, egress and where the
// models come from. Each takes
// the rendered objects and returns one line per problem.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { modelsImageTag } from '../docker/models-image.mjs';
import { RENDER_GRACE_SECONDS } from '../k8s/workloads.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export const named = (object) => `${object.kind}/${object.metadata?.name}`;
const WORKLOAD_KINDS = new Set(['Deployment', 'Job']);
export const workloadsOf = (objects) => objects.filter((object) => WORKLOAD_KINDS.has(object.kind));
const podOf = (workload) => workload.spec.template;
const containersOf = (workload) => [...(podOf(workload).spec.initContainers ?? []), ...podOf(workload).spec.containers];
const isInfrastructure = (object) => object.metadata.labels?.['productgen.io/tier'] === 'infrastructure';

/** Kubernetes label selector semantics (matchLabels and matchExpressions); an empty selector selects everything. */
export function selects(selector, labels = {}) {
  const { matchLabels = {}, matchExpressions = [] } = selector ?? {};
  return (
    Object.entries(matchLabels).every(([key, value]) => labels[key] === value) &&
    matchExpressions.every(({ key, operator, values = [] }) => {
      if (operator === 'In') return values.includes(labels[key]);
      if (operator === 'NotIn') return !values.includes(labels[key]);
      if (operator === 'Exists') return key in labels;
      return !(key in labels); // DoesNotExist
    })
  );
}

/** The workloads whose pods a Service selects. */
export const backendsOf = (objects, service) =>
  workloadsOf(objects).filter(
    (workload) =>
      workload.metadata.namespace === service.metadata.namespace &&
      Object.keys(service.spec.selector ?? {}).length > 0 &&
      selects({ matchLabels: service.spec.selector }, podOf(workload).metadata.labels),
  );

// ── namespaces ─────────────────────────────────────────────────────────────────────────────────────────────────

const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'IngressClass',
  'PriorityClass',
  'StorageClass',
  'PersistentVolume',
  'ClusterTriggerAuthentication',
]);

/** Without a namespace an object lands in whatever namespace the kubectl context points at. */
export function namespaceRules(objects) {
  return objects
    .filter((object) => !CLUSTER_SCOPED.has(object.kind) && !object.metadata.namespace)
    .map((object) => `${named(object)}: has no namespace, so it lands in the kubectl context's namespace`);
}

// ── the Ingress in front of the gateway ────────────────────────────────────────────────────────────────────────

const GATEWAY_ENTRY = 'services/gateway/dist/main.js';
const NGINX = 'nginx.ingress.kubernetes.io';
const MIB = 1024 * 1024;

/** The environment a workload's main container gets from literal values (its env and envFrom ConfigMaps). */
function literalEnvironment(objects, workload) {
  const container = podOf(workload).spec.containers[0];
  const env = {};
  for (const source of container.envFrom ?? []) {
    const configMap = objects.find(
      (object) =>
        object.kind === 'ConfigMap' &&
        // configMapGenerator appends a content hash to the name; the references are rewritten to match.
        object.metadata.name === source.configMapRef?.name,
    );
    Object.assign(env, configMap?.data ?? {});
  }
  for (const variable of container.env ?? []) if ('value' in variable) env[variable.name] = variable.value;
  return env;
}

/**
 * The gateway's body caps and upload wait, read from its own config schema (services/gateway/src/config.ts, built)
 * with the values the Deployment sets, so the Ingress is held to the numbers the gateway really uses.
 */
function gatewayLimits(env) {
  const built = path.join(root, 'services/gateway/dist/config.js');
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build (the gateway's limits come from it)`);
  const { gatewayConfigSchema } = require(built);
  const read = (name) => gatewayConfigSchema.shape[name].parse(env[name] === '' ? undefined : env[name]);
  const bodies = ['JSON_BODY_LIMIT_BYTES', 'IMAGE_BODY_LIMIT_BYTES', 'UPLOAD_BODY_LIMIT_BYTES'].map((name) => ({
    name,
    bytes: read(name),
  }));
  return {
    largestBody: bodies.reduce((largest, body) => (body.bytes > largest.bytes ? body : largest)),
    uploadTimeoutSeconds: read('UPSTREAM_UPLOAD_TIMEOUT_MS') / 1000,
  };
}

/** nginx's size syntax: bytes, or k/m/g (binary units); 0 turns the check off. */
function nginxBytes(size) {
  const match = /^(\d+)([kmg]?)$/i.exec(String(size).trim());
  if (!match) return undefined;
  const unit = { '': 1, k: 1024, m: MIB, g: 1024 * MIB }[match[2].toLowerCase()];
  return Number(match[1]) === 0 ? Infinity : Number(match[1]) * unit;
}

/**
 * An Ingress routing to the gateway lets through its largest body and outlasts its longest upload wait, and streams
 * request bodies (ingress-nginx otherwise spools the whole upload to its disk before the gateway sees a byte).
 */
export function ingressRules(objects) {
  const problems = [];
  for (const ingress of objects.filter((object) => object.kind === 'Ingress')) {
    const backends = (ingress.spec.rules ?? []).flatMap((rule) =>
      (rule.http?.paths ?? []).map((route) => route.backend?.service?.name),
    );
    const gateway = objects
      .filter((object) => object.kind === 'Service' && backends.includes(object.metadata.name))
      .flatMap((service) => backendsOf(objects, service))
      .find((workload) => podOf(workload).spec.containers[0].command?.includes(GATEWAY_ENTRY));
    if (!gateway) continue;
    const limits = gatewayLimits(literalEnvironment(objects, gateway));
    const annotations = ingress.metadata.annotations ?? {};
    const where = `${named(ingress)} (to the gateway)`;
    const bodySize = annotations[`${NGINX}/proxy-body-size`] ?? '1m';
    if (!(nginxBytes(bodySize) >= limits.largestBody.bytes)) {
      problems.push(
        `${where}: proxy-body-size ${bodySize} is below the gateway's largest body, ` +
          `${limits.largestBody.bytes / MIB} MiB (${limits.largestBody.name}): such uploads are refused with 413`,
      );
    }
    for (const timeout of ['proxy-read-timeout', 'proxy-send-timeout']) {
      const seconds = annotations[`${NGINX}/${timeout}`] ?? '60';
      if (!(Number(seconds) > limits.uploadTimeoutSeconds)) {
        problems.push(
          `${where}: ${timeout} ${seconds} s does not outlast the gateway's upload wait, ` +
            `${limits.uploadTimeoutSeconds} s (UPSTREAM_UPLOAD_TIMEOUT_MS): long uploads are cut with 504`,
        );
      }
    }
    if (annotations[`${NGINX}/proxy-request-buffering`] !== 'off') {
      problems.push(`${where}: proxy-request-buffering must be "off", so uploads stream to the gateway`);
    }
  }
  return problems;
}

// ── network policies ───────────────────────────────────────────────────────────────────────────────────────────

/** The policies of a pod's namespace that select it for the given direction. */
function policiesFor(objects, workload, direction) {
  return objects.filter(
    (object) =>
      object.kind === 'NetworkPolicy' &&
      object.metadata.namespace === workload.metadata.namespace &&
      (object.spec.policyTypes ?? ['Ingress', ...(object.spec.egress ? ['Egress'] : [])]).includes(direction) &&
      selects(object.spec.podSelector, podOf(workload).metadata.labels),
  );
}

/** Whether a rule's port list lets a port through: by number or by the container port's name. */
function portAllowed(rulePorts, port, protocol) {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some(
    (entry) =>
      (entry.protocol ?? 'TCP') === protocol &&
      (entry.port === undefined || entry.port === port.number || entry.port === port.name),
  );
}

/** Whether the pods of a workload accept a connection from any pod of another namespace. */
function admitsFromNamespace(objects, workload, namespace, port) {
  const policies = policiesFor(objects, workload, 'Ingress');
  if (policies.length === 0) return true;
  const namespaceLabels = { 'kubernetes.io/metadata.name': namespace };
  return policies.some((policy) =>
    (policy.spec.ingress ?? []).some(
      (rule) =>
        portAllowed(rule.ports, port, 'TCP') &&
        (!rule.from ||
          rule.from.some(
            (peer) =>
              peer.namespaceSelector &&
              selects(peer.namespaceSelector, namespaceLabels) &&
              (!peer.podSelector || Object.keys(peer.podSelector).length === 0),
          )),
    ),
  );
}

const DNS_PORT = { number: 53 };
const OTLP_PORT = { number: 4318 };

/** Whether a pod may open connections to the port, to any address (anyAddress) or at least somewhere. */
function egressAllowed(objects, workload, port, protocol, { anyAddress }) {
  const policies = policiesFor(objects, workload, 'Egress');
  if (policies.length === 0) return true;
  return policies.some((policy) =>
    (policy.spec.egress ?? []).some(
      (rule) =>
        portAllowed(rule.ports, port, protocol) &&
        (!anyAddress || !rule.to || rule.to.some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0' && !peer.ipBlock.except)),
    ),
  );
}

/**
 * Pods whose egress is restricted still resolve names wherever the cluster's resolver is (NodeLocal DNSCache
 * answers on a link-local address of the node, in no namespace) and still export their spans over OTLP.
 */
export function egressRules(objects) {
  const problems = [];
  for (const workload of workloadsOf(objects)) {
    if (!egressAllowed(objects, workload, DNS_PORT, 'UDP', { anyAddress: true })) {
      problems.push(`${named(workload)}: DNS (port 53/UDP) is not allowed to any address, so NodeLocal DNS breaks it`);
    }
    if (!egressAllowed(objects, workload, DNS_PORT, 'TCP', { anyAddress: true })) {
      problems.push(`${named(workload)}: DNS (port 53/TCP) is not allowed to any address (large answers use TCP)`);
    }
    if (!egressAllowed(objects, workload, OTLP_PORT, 'TCP', { anyAddress: false })) {
      problems.push(`${named(workload)}: no egress to an OTLP collector (port 4318), so its spans are never exported`);
    }
  }
  return problems;
}

// ── KEDA ───────────────────────────────────────────────────────────────────────────────────────────────────────

const KEDA_NAMESPACE = 'keda';

/** `<service>.<namespace>.svc[.cluster.local]` → its parts; another name → undefined. */
function clusterService(hostname) {
  const match = /^([a-z0-9-]+)\.([a-z0-9-]+)\.svc(\.cluster\.local)?$/.exec(hostname);
  return match ? { name: match[1], namespace: match[2] } : undefined;
}

/** The broker a RabbitMQ trigger asks, as KEDA's operator sees it from its own namespace. */
function rabbitmqTriggerProblems(objects, scaledObject, trigger) {
  const where = `${named(scaledObject)} trigger rabbitmq`;
  const { host, protocol = 'auto', mode, excludeUnacknowledged } = trigger.metadata ?? {};
  if (!host) {
    return [`${where}: set metadata.host (the broker's address; credentials stay in the TriggerAuthentication)`];
  }
  const problems = [];
  const url = new URL(host);
  const http = protocol === 'http' || (protocol === 'auto' && url.protocol.startsWith('http'));
  if (mode === 'QueueLength' && (!http || excludeUnacknowledged === 'true')) {
    problems.push(
      `${where}: QueueLength over AMQP (or without unacknowledged messages) counts only waiting jobs, ` +
        `not the ones being rendered: use protocol http (the management API)`,
    );
  }
  if (!url.hostname.includes('.')) {
    problems.push(
      `${where}: host "${url.hostname}" is resolved in KEDA's namespace, not this one: ` +
        `use ${url.hostname}.${scaledObject.metadata.namespace}.svc.cluster.local`,
    );
    return problems;
  }
  const target = clusterService(url.hostname);
  if (!target) return problems; // a broker outside the cluster, by its DNS name
  const service = objects.find(
    (object) =>
      object.kind === 'Service' &&
      object.metadata.name === target.name &&
      object.metadata.namespace === target.namespace,
  );
  const rendered = objects.some((object) => object.metadata.namespace === target.namespace);
  if (!service) {
    if (rendered) problems.push(`${where}: host ${url.hostname} names no Service of this release`);
    return problems;
  }
  const servicePort = (service.spec.ports ?? []).find((entry) => String(entry.port) === (url.port || '80'));
  if (!servicePort) {
    problems.push(`${where}: Service/${target.name} has no port ${url.port || 80}`);
    return problems;
  }
  for (const backend of backendsOf(objects, service)) {
    const container = podOf(backend).spec.containers.flatMap((entry) => entry.ports ?? []);
    const targetPort = servicePort.targetPort ?? servicePort.port;
    const containerPort = container.find((entry) => entry.name === targetPort || entry.containerPort === targetPort);
    const port = { number: containerPort?.containerPort ?? targetPort, name: containerPort?.name };
    if (!admitsFromNamespace(objects, backend, KEDA_NAMESPACE, port)) {
      problems.push(
        `${where}: the NetworkPolicies of ${named(backend)} do not admit the ${KEDA_NAMESPACE} namespace on port ` +
          `${port.name ?? port.number}, so KEDA cannot read the queue`,
      );
    }
  }
  return problems;
}

/**
 * KEDA reaches its broker from its own namespace and keeps a sane replica count when it cannot; the workers it
 * scales in get the time to finish the jobs they hold.
 */
export function kedaRules(objects) {
  const problems = [];
  for (const scaledObject of objects.filter((object) => object.kind === 'ScaledObject')) {
    const triggers = scaledObject.spec.triggers ?? [];
    const queueTriggers = triggers.filter((candidate) => candidate.type === 'rabbitmq');
    for (const trigger of queueTriggers) problems.push(...rabbitmqTriggerProblems(objects, scaledObject, trigger));
    const target = objects.find(
      (object) =>
        object.kind === 'Deployment' &&
        object.metadata.namespace === scaledObject.metadata.namespace &&
        object.metadata.name === scaledObject.spec.scaleTargetRef?.name,
    );
    const grace = target && (podOf(target).spec.terminationGracePeriodSeconds ?? 30);
    if (queueTriggers.length > 0 && target && grace < RENDER_GRACE_SECONDS) {
      problems.push(
        `${named(target)}: terminationGracePeriodSeconds ${grace} is shorter than a long render ` +
          `(${RENDER_GRACE_SECONDS} s, scripts/k8s/workloads.mjs): scaling in would kill renders midway`,
      );
    }
    if (!scaledObject.spec.fallback) {
      problems.push(`${named(scaledObject)}: no fallback, so a broker KEDA cannot reach freezes the replica count`);
    }
  }
  return problems;
}

// ── spreading ──────────────────────────────────────────────────────────────────────────────────────────────────

/** The most replicas a Deployment may run: its own count, or what its HPA or ScaledObject may scale it to. */
function maxReplicas(objects, deployment) {
  const scalers = objects.filter(
    (object) =>
      (object.kind === 'HorizontalPodAutoscaler' || object.kind === 'ScaledObject') &&
      object.metadata.namespace === deployment.metadata.namespace &&
      object.spec.scaleTargetRef?.name === deployment.metadata.name,
  );
  return Math.max(
    deployment.spec.replicas ?? 1,
    ...scalers.map((scaler) => scaler.spec.maxReplicas ?? scaler.spec.maxReplicaCount ?? 100),
  );
}

/** A Deployment that may run two pods or more spreads them over nodes, so one node's loss leaves some. */
export function spreadRules(objects) {
  return objects
    .filter((object) => object.kind === 'Deployment' && !isInfrastructure(object) && maxReplicas(objects, object) > 1)
    .filter(
      (deployment) =>
        !(podOf(deployment).spec.topologySpreadConstraints ?? []).some(
          (constraint) =>
            constraint.topologyKey === 'kubernetes.io/hostname' &&
            selects(constraint.labelSelector, podOf(deployment).metadata.labels),
        ),
    )
    .map(
      (deployment) =>
        `${named(deployment)}: may run ${maxReplicas(objects, deployment)} pods but has no ` +
        `topologySpreadConstraint over kubernetes.io/hostname selecting them`,
    );
}

// ── models ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** The downloader of `npm run models:fetch`: it fetches from the manifest's third-party URLs. */
export const MODEL_DOWNLOADER = /(^|\/)fetch-cli\.js$/;
/** The models image of this manifest, by its tag or pinned by digest. */
export const isModelsImage = (image) =>
  new RegExp(`/models(:${modelsImageTag()}|@sha256:[0-9a-f]{64})$`).test(image ?? '');

/**
 * No pod downloads its models when it starts: a container with MODELS_DIR reads a volume, mounted read-only, that an
 * init container of the models image built from this manifest fills.
 */
export function modelRules(objects) {
  const problems = [];
  for (const workload of workloadsOf(objects)) {
    const pod = podOf(workload).spec;
    for (const container of containersOf(workload)) {
      if ([...(container.command ?? []), ...(container.args ?? [])].some((part) => MODEL_DOWNLOADER.test(part))) {
        problems.push(`${named(workload)} container ${container.name}: downloads the models when the pod starts`);
      }
    }
    for (const container of pod.containers) {
      const modelsDir = (container.env ?? []).find((variable) => variable.name === 'MODELS_DIR')?.value;
      if (!modelsDir) continue;
      const where = `${named(workload)} container ${container.name}`;
      const mount = (container.volumeMounts ?? []).find((entry) => entry.mountPath === modelsDir);
      if (!mount) {
        problems.push(`${where}: MODELS_DIR ${modelsDir} is no volume, so the models would have to be fetched`);
        continue;
      }
      if (mount.readOnly !== true) problems.push(`${where}: the models volume must be mounted read-only`);
      const filled = (pod.initContainers ?? []).some(
        (init) => isModelsImage(init.image) && (init.volumeMounts ?? []).some((entry) => entry.name === mount.name),
      );
      if (!filled) {
        problems.push(
          `${where}: no init container of the models image (models:${modelsImageTag()}, built from ` +
            `models/manifest.json) fills its models volume "${mount.name}"`,
        );
      }
    }
  }
  return problems;
}

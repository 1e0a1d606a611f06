// The Kubernetes workloads of ProductGen, described once: each becomes a ServiceAccount, a Deployment (restricted
// security context, probes, requests and limits), a Service and a PodDisruptionBudget. `node
// scripts/k8s/generate.mjs` writes them to k8s/base/workloads/; scripts/mfe-release.mjs renders a new microfrontend
// version with the same function. tests/deploy checks that the committed files are what this produces.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { INSTALL_MODELS_COMMAND, modelsImage } from '../docker/models-image.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const versionOf = (workspace) =>
  JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8')).version;

export const IMAGE_REGISTRY = 'productgen';
export const MICROFRONTENDS = ['marketing', 'create', 'dashboard', 'tools'];
const METRICS_PORT = 9464;
const INFRA_SECRET = 'productgen-infra';
const PART_OF = 'productgen';

/** `1.4.0` → `v1-4-0`: a version as it may appear in a resource name (the shell host fills it in MFE_UPSTREAM). */
export const versionLabel = (version) => `v${version.replaceAll('.', '-')}`;

const fromSecret = (name, key, optional = false) => ({
  name,
  valueFrom: { secretKeyRef: { name: INFRA_SECRET, key, ...(optional ? { optional: true } : {}) } },
});
const fromCommon = (name, key) => ({ name, valueFrom: { configMapKeyRef: { name: 'productgen-common', key } } });
const value = (name, text) => ({ name, value: text });

/** The secret every process signs and verifies the calls between them with. */
const serviceAuthEnv = fromSecret('SERVICE_AUTH_SECRET', 'SERVICE_AUTH_SECRET');
const infraEnv = [fromSecret('MONGO_URL', 'MONGO_URL'), fromSecret('AMQP_URL', 'AMQP_URL'), serviceAuthEnv];
const objectStoreEnv = ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'].map((key) => fromSecret(key, key));
const serviceUrls = {
  AUTH_URL: value('AUTH_URL', 'http://auth:8081'),
  BILLING_URL: value('BILLING_URL', 'http://billing:8082'),
  GENERATION_URL: value('GENERATION_URL', 'http://generation:8083'),
  BULK_URL: value('BULK_URL', 'http://bulk:8084'),
};

/**
 * The models come with the platform: an init container of the models image (docker/models.Dockerfile, tagged by the
 * manifest's hash) copies them into the pod's volume, every sha256 checked, and the service mounts it read-only.
 * Nothing is downloaded when a pod starts.
 */
const models = {
  initContainers: [
    {
      name: 'models-init',
      image: modelsImage(IMAGE_REGISTRY),
      command: INSTALL_MODELS_COMMAND,
      env: [value('MODELS_DIR', '/models')],
      volumeMounts: [{ name: 'models', mountPath: '/models' }],
    },
  ],
  volumes: [{ name: 'models', emptyDir: { sizeLimit: '256Mi' } }],
  volumeMounts: [{ name: 'models', mountPath: '/models', readOnly: true }],
};
const generationEnv = [
  ...objectStoreEnv,
  serviceUrls.BILLING_URL,
  serviceUrls.AUTH_URL,
  value('MODELS_DIR', '/models'),
  // The pods' CPU limit: unset, onnxruntime would start a thread per core of the node, not of the pod.
  value('INFERENCE_THREADS', '2'),
];

/**
 * How long a render worker may take to stop. On SIGTERM it stops taking jobs and finishes the ones it holds
 * (WORKER_PREFETCH, two); killed earlier, a render is redelivered and done again by another worker. A 5-image
 * generation renders in 2-12 s on two cores and slow nodes have been seen 2x slower: 5 minutes covers a long one with
 * room. scripts/deploy/validate.mjs holds the Deployments KEDA scales to it.
 */
export const RENDER_GRACE_SECONDS = 300;

const smallResources = { requests: { cpu: '100m', memory: '192Mi' }, limits: { cpu: '1', memory: '512Mi' } };

/**
 * Back-end workloads: tier "service" may reach MongoDB, RabbitMQ and MinIO; the gateway only RabbitMQ, where it hears
 * of logouts (`session.revoked`) so that every replica drops a revoked session at once.
 */
export function backEndWorkloads() {
  const image = (name, workspace) => `${IMAGE_REGISTRY}/${name}:${versionOf(workspace)}`;
  const service = (name, port, env, extra = {}) => ({
    name,
    tier: 'service',
    image: image(name, `services/${name}`),
    command: ['node', `services/${name}/dist/main.js`],
    port,
    env: [value('PORT', String(port)), ...infraEnv, ...env],
    resources: smallResources,
    ...extra,
  });
  return [
    service('auth', 8081, [fromSecret('GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_ID', true)]),
    service('billing', 8082, [
      fromCommon('WEB_URL', 'WEB_PUBLIC_URL'),
      fromCommon('API_PUBLIC_URL', 'API_PUBLIC_URL'),
      fromSecret('STRIPE_SECRET_KEY', 'STRIPE_SECRET_KEY', true),
      fromSecret('STRIPE_WEBHOOK_SECRET', 'STRIPE_WEBHOOK_SECRET', true),
    ]),
    service('generation', 8083, [value('GENERATION_WORKER', 'off'), ...generationEnv], {
      ...models,
      resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2', memory: '1Gi' } },
    }),
    {
      // Renders only: it serves the operations port, and KEDA sets its replica count from the queue depth.
      name: 'generation-worker',
      tier: 'service',
      image: image('generation', 'services/generation'),
      command: ['node', 'services/generation/dist/worker.js'],
      port: METRICS_PORT,
      autoscaled: true,
      terminationGracePeriodSeconds: RENDER_GRACE_SECONDS,
      // Scaling out on a backlog must not wait for a node that keeps the spread even: spreading is a preference.
      spreadNodesStrictly: false,
      env: [...infraEnv, ...generationEnv],
      resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } },
      ...models,
    },
    service('bulk', 8084, [...objectStoreEnv, serviceUrls.BILLING_URL, serviceUrls.GENERATION_URL]),
    {
      name: 'gateway',
      tier: 'gateway',
      image: image('gateway', 'services/gateway'),
      command: ['node', 'services/gateway/dist/main.js'],
      port: 8080,
      autoscaled: true,
      env: [
        value('PORT', '8080'),
        // MongoDB: where every replica counts the rate limits.
        ...infraEnv,
        ...Object.values(serviceUrls),
        value('TRUST_PROXY', '1'),
        fromCommon('WEB_ORIGINS', 'WEB_PUBLIC_URL'),
        fromSecret('GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_ID', true),
        fromSecret('STRIPE_PUBLISHABLE_KEY', 'STRIPE_PUBLISHABLE_KEY', true),
      ],
      resources: { requests: { cpu: '200m', memory: '192Mi' }, limits: { cpu: '1', memory: '512Mi' } },
    },
  ];
}

const webResources = { requests: { cpu: '50m', memory: '96Mi' }, limits: { cpu: '500m', memory: '256Mi' } };
const webHostCommand = ['node', 'packages/web-host/dist/main.js'];

/** The shell host: reads the registry from the web-registry ConfigMap, forwards /mfe/<name>/<version>/. */
export function shellWorkload() {
  return {
    name: 'shell',
    tier: 'web',
    image: `${IMAGE_REGISTRY}/shell:${versionOf('shell')}`,
    command: webHostCommand,
    port: 8080,
    env: [
      value('WEB_HOST_ROLE', 'shell'),
      value('REGISTRY_FILE', '/config/remotes.json'),
      value('MFE_UPSTREAM', 'http://mfe-{name}-{version}:8080'),
      fromCommon('API_PUBLIC_URL', 'API_PUBLIC_URL'),
      fromSecret('GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_ID', true),
    ],
    resources: webResources,
    volumes: [{ name: 'registry', configMap: { name: 'web-registry' } }],
    volumeMounts: [{ name: 'registry', mountPath: '/config', readOnly: true }],
  };
}

/** One version of one microfrontend: `mfe-create-v1-4-0`, serving /mfe/create/1.4.0/. */
export function microfrontendWorkload(name, version, image = `${IMAGE_REGISTRY}/mfe-${name}:${version}`) {
  return {
    name: `mfe-${name}-${versionLabel(version)}`,
    tier: 'microfrontend',
    image,
    command: webHostCommand,
    port: 8080,
    env: [value('WEB_HOST_ROLE', 'microfrontend'), value('MFE_NAME', name), value('MFE_VERSION', version)],
    resources: webResources,
    labels: { 'productgen.io/microfrontend': name, 'productgen.io/version': version },
  };
}

export function allWorkloads() {
  return [
    ...backEndWorkloads(),
    shellWorkload(),
    ...MICROFRONTENDS.map((name) => microfrontendWorkload(name, versionOf(`mfe-${name}`))),
  ];
}

/** The restricted Pod Security level, for every pod and container of ProductGen's own images. */
const podSecurity = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  seccompProfile: { type: 'RuntimeDefault' },
};
const hardening = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

/** The services that own a database; each image's migration runs as a Job before its Deployment (README). */
export const MIGRATED_SERVICES = ['auth', 'billing', 'generation', 'bulk', 'gateway'];

/**
 * `migrate-<service>`: the service image's dist/migrate.js (collections and indexes, idempotent) as a Job. Tier
 * "job" may reach MongoDB (network policies). It reads MONGO_URL only, from the secret, so it can run before the
 * rest of the release is applied.
 */
export function migrationJob(service) {
  const name = `migrate-${service}`;
  const labels = {
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/component': 'migration',
    'app.kubernetes.io/part-of': PART_OF,
    'productgen.io/tier': 'job',
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, labels },
    spec: {
      backoffLimit: 10,
      ttlSecondsAfterFinished: 3600,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'OnFailure',
          automountServiceAccountToken: false,
          securityContext: podSecurity,
          containers: [
            {
              name,
              image: `${IMAGE_REGISTRY}/${service}:${versionOf(`services/${service}`)}`,
              command: ['node', `services/${service}/dist/migrate.js`],
              env: [fromSecret('MONGO_URL', 'MONGO_URL'), value('LOG_LEVEL', 'info')],
              resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
              securityContext: hardening,
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
            },
          ],
          volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '16Mi' } }],
        },
      },
    },
  };
}

/** ServiceAccount, Deployment, Service and PodDisruptionBudget of one workload. */
export function renderWorkload(workload) {
  const labels = {
    'app.kubernetes.io/name': workload.name,
    'app.kubernetes.io/part-of': PART_OF,
    'productgen.io/tier': workload.tier,
    ...(workload.labels ?? {}),
  };
  const selector = { 'app.kubernetes.io/name': workload.name };
  const metadata = { name: workload.name, labels };
  const isWorker = workload.port === METRICS_PORT;
  const probe = (pathName, periodSeconds) => ({
    httpGet: { path: pathName, port: isWorker ? 'metrics' : 'http' },
    periodSeconds,
    timeoutSeconds: 3,
    failureThreshold: 3,
  });
  const tmp = { name: 'tmp', mountPath: '/tmp' };
  const ports = isWorker
    ? [{ name: 'metrics', containerPort: METRICS_PORT }]
    : [
        { name: 'http', containerPort: workload.port },
        ...(workload.tier === 'service' || workload.tier === 'gateway'
          ? [{ name: 'metrics', containerPort: METRICS_PORT }]
          : []),
      ];
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: {
      // The gateway's HPA and the worker's ScaledObject own their replica counts.
      ...(workload.autoscaled ? {} : { replicas: 1 }),
      revisionHistoryLimit: 5,
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels,
          ...(ports.some((port) => port.name === 'metrics')
            ? {
                annotations: {
                  'prometheus.io/scrape': 'true',
                  'prometheus.io/port': String(METRICS_PORT),
                  'prometheus.io/path': '/metrics',
                },
              }
            : {}),
        },
        spec: {
          serviceAccountName: workload.name,
          automountServiceAccountToken: false,
          securityContext: podSecurity,
          ...(workload.terminationGracePeriodSeconds
            ? { terminationGracePeriodSeconds: workload.terminationGracePeriodSeconds }
            : {}),
          // Replicas on different nodes (a hard rule unless the workload says otherwise: one node's loss or drain
          // never takes every pod), and on different zones where the nodes have zones (a preference: clusters
          // without zone labels still schedule). Only the current ReplicaSet's pods count, so a rolling update is
          // not held by the old ones.
          topologySpreadConstraints: [
            {
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: workload.spreadNodesStrictly === false ? 'ScheduleAnyway' : 'DoNotSchedule',
            },
            { topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
          ].map((constraint) => ({
            maxSkew: 1,
            ...constraint,
            labelSelector: { matchLabels: selector },
            matchLabelKeys: ['pod-template-hash'],
          })),
          ...((workload.initContainers ?? []).length > 0
            ? {
                initContainers: workload.initContainers.map((init) => ({
                  image: workload.image,
                  ...init,
                  securityContext: hardening,
                  resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
                  volumeMounts: [...init.volumeMounts, tmp],
                })),
              }
            : {}),
          containers: [
            {
              name: workload.name,
              image: workload.image,
              command: workload.command,
              ports,
              envFrom: [{ configMapRef: { name: 'productgen-common' } }],
              env: workload.env,
              readinessProbe: probe('/readyz', 10),
              livenessProbe: { ...probe('/healthz', 20), initialDelaySeconds: 10 },
              resources: workload.resources,
              securityContext: hardening,
              volumeMounts: [tmp, ...(workload.volumeMounts ?? [])],
            },
          ],
          volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } }, ...(workload.volumes ?? [])],
        },
      },
    },
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: {
      selector,
      ports: ports.map((port) => ({ name: port.name, port: port.containerPort, targetPort: port.name })),
    },
  };
  const disruptionBudget = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata,
    spec: { maxUnavailable: 1, selector: { matchLabels: selector } },
  };
  const serviceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata, automountServiceAccountToken: false };
  return [serviceAccount, deployment, service, disruptionBudget];
}

import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

// The offline checks of scripts/deploy/validate.mjs, on the real files and on copies with one planted mistake each.
const root = path.resolve(__dirname, '..', '..');
const validator = path.join(root, 'scripts', 'deploy', 'validate.mjs');
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'deploy-validation-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function validate(...args: string[]): { status: number | null; output: string; problems: string[] } {
  const result = spawnSync('node', [validator, ...args], { cwd: root, encoding: 'utf8' });
  const output = `${result.stdout}${result.stderr}`;
  // Every line but the per-target summary ("<target>: N checked, N problems") is one problem.
  const problems = output.split('\n').filter((line) => line !== '' && !/: \d+ checked, \d+ problems$/.test(line));
  return { status: result.status, output, problems };
}

function writeScratch(name: string, text: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, text);
  return file;
}

/** A rendered object, loosely typed: the tests reach into it to plant one mistake. */
interface Manifest {
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a planted mistake may go anywhere in a spec
  spec: Record<string, any>;
  data?: Record<string, string>;
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: Array<{ name: string; value?: string }>;
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
  securityContext: Record<string, unknown>;
}
interface PodSpecHolder {
  template: {
    spec: {
      containers: Container[];
      initContainers?: Container[];
      topologySpreadConstraints?: unknown[];
      terminationGracePeriodSeconds?: number;
    };
  };
}

function renderOverlay(overlay: string): Manifest[] {
  const text = execFileSync('kubectl', ['kustomize', path.join(root, 'k8s', 'overlays', overlay)], {
    encoding: 'utf8',
  });
  return YAML.parseAllDocuments(text).map((document) => document.toJS() as Manifest);
}

const find = (objects: Manifest[], kind: string, name: string): Manifest => {
  const object = objects.find((candidate) => candidate.kind === kind && candidate.metadata.name === name);
  if (!object) throw new Error(`${kind}/${name} is not in the rendered overlay`);
  return object;
};
const podOf = (objects: Manifest[], kind: string, name: string) =>
  (find(objects, kind, name).spec as unknown as PodSpecHolder).template.spec;
/** The first container of a Deployment's or Job's pod template. */
const firstContainer = (objects: Manifest[], kind: string, name: string) => podOf(objects, kind, name).containers[0]!;
/** As a YAML 1.1 aware writer puts it (strings such as 'off' quoted), so only the planted mistake is wrong. */
const asYaml = (objects: Manifest[], options: YAML.SchemaOptions = { schema: 'yaml-1.1' }) =>
  objects.map((object) => YAML.stringify(object, options)).join('---\n');
/** Validates the objects as one rendered release. */
const validateObjects = (name: string, objects: Manifest[], ...options: string[]) =>
  validate('kubernetes', writeScratch(name, asYaml(objects)), ...options);

describe('Kubernetes manifests', () => {
  test.each(['dev', 'prod'])('the %s overlay renders and every object passes the schemas and rules', (overlay) => {
    const { status, output } = validate('kubernetes', `k8s/overlays/${overlay}`);
    expect(output).toMatch(/k8s\/overlays\/\w+: \d+ checked, 0 problems/);
    expect(status).toBe(0);
  });

  test('the committed workloads are what scripts/k8s/generate.mjs produces', () => {
    const result = spawnSync('node', [path.join(root, 'scripts', 'k8s', 'generate.mjs'), '--check'], { cwd: root });
    expect(result.stderr.toString()).toBe('');
    expect(result.status).toBe(0);
  });

  test('production runs with NODE_ENV=production and never turns on a dev identity provider', () => {
    const objects = renderOverlay('prod');
    const common = objects.find(
      (object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('productgen-common'),
    );
    expect(common?.data?.NODE_ENV).toBe('production');
    expect(YAML.stringify(objects)).not.toMatch(/DEV_IDENTITY_PROVIDER|DEV_IDP_ENABLED/);
    expect(objects.some((object) => object.kind === 'Secret')).toBe(false);
  });

  test('a field of the wrong type fails the Kubernetes schema', () => {
    const objects = renderOverlay('prod');
    find(objects, 'Deployment', 'auth').spec.replicas = 'two';
    const { status, output } = validate('kubernetes', writeScratch('wrong-type.yaml', asYaml(objects)));
    expect(output).toContain('Deployment/auth:');
    expect(status).toBe(1);
  });

  test('a malformed KEDA ScaledObject fails the KEDA schema', () => {
    const objects = renderOverlay('prod');
    find(objects, 'ScaledObject', 'generation-worker').spec.minReplicaCount = 'one';
    const { status, output } = validate('kubernetes', writeScratch('keda.yaml', asYaml(objects)));
    expect(output).toContain('ScaledObject/generation-worker:');
    expect(status).toBe(1);
  });

  test('a writable root filesystem breaks the project rules', () => {
    const objects = renderOverlay('prod');
    const container = firstContainer(objects, 'Deployment', 'billing');
    delete container.securityContext.readOnlyRootFilesystem;
    const { status, output } = validate('kubernetes', writeScratch('writable.yaml', asYaml(objects)));
    expect(output).toContain('Deployment/billing container billing: readOnlyRootFilesystem must be true');
    expect(status).toBe(1);
  });

  test('every service with a database has a migration Job', () => {
    const objects = renderOverlay('prod');
    const jobs = objects.filter((object) => object.kind === 'Job').map((job) => job.metadata.name);
    expect(jobs).toEqual(
      expect.arrayContaining(['migrate-auth', 'migrate-billing', 'migrate-generation', 'migrate-bulk']),
    );
  });

  test('a service whose migration Job is missing breaks the project rules', () => {
    const objects = renderOverlay('prod').filter(
      (object) => !(object.kind === 'Job' && object.metadata.name === 'migrate-billing'),
    );
    const { status, output } = validate('kubernetes', writeScratch('no-migration.yaml', asYaml(objects)));
    expect(output).toContain("Deployment/billing: uses MongoDB but no Job runs its image's migration");
    expect(status).toBe(1);
  });

  test('a migration Job with a writable root filesystem breaks the project rules', () => {
    const objects = renderOverlay('prod');
    const container = firstContainer(objects, 'Job', 'migrate-auth');
    container.securityContext.readOnlyRootFilesystem = false;
    const { status, output } = validate('kubernetes', writeScratch('writable-job.yaml', asYaml(objects)));
    expect(output).toContain('Job/migrate-auth container migrate-auth: readOnlyRootFilesystem must be true');
    expect(status).toBe(1);
  });

  test('a kustomization naming a missing file does not render', () => {
    const dir = mkdtempSync(path.join(scratch, 'kustomization-'));
    writeFileSync(path.join(dir, 'kustomization.yaml'), 'resources:\n  - missing.yaml\n');
    const { status, output } = validate('kubernetes', dir);
    expect(output).toContain('missing.yaml');
    expect(status).toBe(1);
  });
});

describe('Kubernetes: namespaces and the README deploy steps', () => {
  const readme = () => readFileSync(path.join(root, 'README.md'), 'utf8');

  test('an object without a namespace is reported', () => {
    const objects = renderOverlay('dev');
    delete find(objects, 'Deployment', 'mongo').metadata.namespace;
    const { status, problems } = validateObjects('no-namespace.yaml', objects);
    expect(problems).toEqual(["Deployment/mongo: has no namespace, so it lands in the kubectl context's namespace"]);
    expect(status).toBe(1);
  });

  test('an object in another namespace than the README deploys into is reported', () => {
    const objects = renderOverlay('dev');
    find(objects, 'ConfigMap', 'web-registry').metadata.namespace = 'default';
    const { status, problems } = validateObjects('other-namespace.yaml', objects);
    expect(problems).toEqual([
      "ConfigMap/web-registry: in namespace default, but the README's commands use productgen",
    ]);
    expect(status).toBe(1);
  });

  test('an infrastructure Service the infrastructure step does not select leaves the jobs without it', () => {
    const objects = renderOverlay('dev');
    delete find(objects, 'Service', 'mongo').metadata.labels!['productgen.io/tier'];
    const { status, problems } = validateObjects('unlabelled-service.yaml', objects);
    expect(problems).toContain(
      'README step "kubectl apply -k $OVERLAY -l productgen.io/tier=job" applies Job/migrate-auth, which connects to ' +
        'Service/mongo, before any step applies Service/mongo',
    );
    expect(problems.every((problem) => problem.includes('before any step applies Service/mongo'))).toBe(true);
    expect(status).toBe(1);
  });

  test('a README that applies the services before waiting for their migrations is reported', () => {
    const file = writeScratch(
      'README-no-wait.md',
      readme().replace(/^ *kubectl -n productgen wait --for=condition=complete job -l .*\n/m, ''),
    );
    const { status, problems } = validate('kubernetes', 'k8s/overlays/prod', `--readme=${file}`);
    expect(problems).toContain(
      'README step "kubectl apply -k $OVERLAY" applies Deployment/billing before its migration Job/migrate-billing ' +
        'was applied and waited for',
    );
    expect(problems).toHaveLength(6); // auth, billing, generation and its render worker, bulk, the gateway
    expect(status).toBe(1);
  });

  test('a README whose secret lacks a key the release reads is reported', () => {
    const file = writeScratch('README-secret.md', readme().replace(' --from-literal=RABBITMQ_PASSWORD=…', ''));
    const { status, problems } = validate('kubernetes', 'k8s/overlays/dev', `--readme=${file}`);
    expect(problems).toEqual([
      "the README's secret productgen-infra has no RABBITMQ_PASSWORD, which the release reads",
    ]);
    expect(status).toBe(1);
  });
});

describe('Kubernetes: the Ingress in front of the gateway', () => {
  const apiIngress = (objects: Manifest[]) => find(objects, 'Ingress', 'productgen-api').metadata.annotations!;

  test("without a body size, ingress-nginx's 1 MiB refuses the gateway's uploads", () => {
    const objects = renderOverlay('prod');
    delete apiIngress(objects)['nginx.ingress.kubernetes.io/proxy-body-size'];
    const { status, problems } = validateObjects('body-size.yaml', objects);
    expect(problems).toEqual([
      "Ingress/productgen-api (to the gateway): proxy-body-size 1m is below the gateway's largest body, 257 MiB " +
        '(UPLOAD_BODY_LIMIT_BYTES): such uploads are refused with 413',
    ]);
    expect(status).toBe(1);
  });

  test("the limit is the gateway's own: raising its upload cap on the Deployment needs a larger Ingress", () => {
    const objects = renderOverlay('prod');
    firstContainer(objects, 'Deployment', 'gateway').env!.push({
      name: 'UPLOAD_BODY_LIMIT_BYTES',
      value: String(300 * 1024 * 1024),
    });
    const { status, problems } = validateObjects('raised-cap.yaml', objects);
    expect(problems).toEqual([
      "Ingress/productgen-api (to the gateway): proxy-body-size 257m is below the gateway's largest body, 300 MiB " +
        '(UPLOAD_BODY_LIMIT_BYTES): such uploads are refused with 413',
    ]);
    expect(status).toBe(1);
  });

  test("a read timeout shorter than the gateway's upload wait is reported", () => {
    const objects = renderOverlay('prod');
    apiIngress(objects)['nginx.ingress.kubernetes.io/proxy-read-timeout'] = '60';
    const { status, problems } = validateObjects('timeout.yaml', objects);
    expect(problems).toEqual([
      "Ingress/productgen-api (to the gateway): proxy-read-timeout 60 s does not outlast the gateway's upload wait, " +
        '600 s (UPSTREAM_UPLOAD_TIMEOUT_MS): long uploads are cut with 504',
    ]);
    expect(status).toBe(1);
  });

  test('request buffering left on is reported', () => {
    const objects = renderOverlay('prod');
    delete apiIngress(objects)['nginx.ingress.kubernetes.io/proxy-request-buffering'];
    const { status, problems } = validateObjects('buffering.yaml', objects);
    expect(problems).toEqual([
      'Ingress/productgen-api (to the gateway): proxy-request-buffering must be "off", so uploads stream to the gateway',
    ]);
    expect(status).toBe(1);
  });
});

describe('Kubernetes: KEDA', () => {
  const trigger = (objects: Manifest[]) => find(objects, 'ScaledObject', 'generation-worker').spec.triggers[0];

  test("a short host name is resolved in KEDA's namespace and is reported", () => {
    const objects = renderOverlay('dev');
    trigger(objects).metadata.host = 'http://rabbitmq:15672/';
    const { status, problems } = validateObjects('keda-short-host.yaml', objects);
    expect(problems).toEqual([
      'ScaledObject/generation-worker trigger rabbitmq: host "rabbitmq" is resolved in KEDA\'s namespace, not this ' +
        'one: use rabbitmq.productgen.svc.cluster.local',
    ]);
    expect(status).toBe(1);
  });

  test('queue length over AMQP (ready messages only) is reported', () => {
    const objects = renderOverlay('dev');
    trigger(objects).metadata.protocol = 'amqp';
    const { status, problems } = validateObjects('keda-amqp.yaml', objects);
    expect(problems).toEqual([
      'ScaledObject/generation-worker trigger rabbitmq: QueueLength over AMQP (or without unacknowledged messages) ' +
        'counts only waiting jobs, not the ones being rendered: use protocol http (the management API)',
    ]);
    expect(status).toBe(1);
  });

  test('a broker whose policies keep the keda namespace out is reported', () => {
    const objects = renderOverlay('dev').filter(
      (object) => !(object.kind === 'NetworkPolicy' && object.metadata.name === 'rabbitmq-management-from-keda'),
    );
    const { status, problems } = validateObjects('keda-policy.yaml', objects);
    expect(problems).toEqual([
      'ScaledObject/generation-worker trigger rabbitmq: the NetworkPolicies of Deployment/rabbitmq do not admit the ' +
        'keda namespace on port management, so KEDA cannot read the queue',
    ]);
    expect(status).toBe(1);
  });

  test('a render worker with the default 30 s to stop is reported', () => {
    const objects = renderOverlay('prod');
    delete podOf(objects, 'Deployment', 'generation-worker').terminationGracePeriodSeconds;
    const { status, problems } = validateObjects('keda-grace.yaml', objects);
    expect(problems).toEqual([
      expect.stringMatching(
        /^Deployment\/generation-worker: terminationGracePeriodSeconds 30 is shorter than a long render \(\d+ s, scripts\/k8s\/workloads.mjs\): scaling in would kill renders midway$/,
      ),
    ]);
    expect(status).toBe(1);
  });

  test('a ScaledObject without a fallback is reported', () => {
    const objects = renderOverlay('prod');
    delete find(objects, 'ScaledObject', 'generation-worker').spec.fallback;
    const { status, problems } = validateObjects('keda-fallback.yaml', objects);
    expect(problems).toEqual([
      'ScaledObject/generation-worker: no fallback, so a broker KEDA cannot reach freezes the replica count',
    ]);
    expect(status).toBe(1);
  });
});

describe('Kubernetes: spreading and egress', () => {
  test('a Deployment that may run several pods without spreading them over nodes is reported', () => {
    const objects = renderOverlay('prod');
    delete podOf(objects, 'Deployment', 'gateway').topologySpreadConstraints;
    const { status, problems } = validateObjects('spread.yaml', objects);
    expect(problems).toEqual([
      'Deployment/gateway: may run 6 pods but has no topologySpreadConstraint over kubernetes.io/hostname selecting them',
    ]);
    expect(status).toBe(1);
  });

  test('DNS allowed only to kube-system is reported for every pod with restricted egress', () => {
    const objects = renderOverlay('prod');
    const egress = find(objects, 'NetworkPolicy', 'dns-and-telemetry-egress').spec.egress;
    egress[0].to = [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }];
    const { status, problems } = validateObjects('dns.yaml', objects);
    expect(problems).toContain(
      'Deployment/gateway: DNS (port 53/UDP) is not allowed to any address, so NodeLocal DNS breaks it',
    );
    expect(problems).toContain(
      'Deployment/mfe-tools-v0-1-0: DNS (port 53/TCP) is not allowed to any address (large answers use TCP)',
    );
    expect(problems.every((problem) => problem.includes('DNS'))).toBe(true);
    expect(status).toBe(1);
  });

  test('restricted egress without the OTLP collector is reported', () => {
    const objects = renderOverlay('prod');
    find(objects, 'NetworkPolicy', 'dns-and-telemetry-egress').spec.egress.splice(1, 1);
    const { status, problems } = validateObjects('otlp.yaml', objects);
    expect(problems).toContain(
      'Deployment/shell: no egress to an OTLP collector (port 4318), so its spans are never exported',
    );
    expect(problems.every((problem) => problem.includes('OTLP'))).toBe(true);
    expect(status).toBe(1);
  });
});

describe('Kubernetes: models', () => {
  test('a pod that downloads its models at start is reported', () => {
    const objects = renderOverlay('prod');
    const init = podOf(objects, 'Deployment', 'generation-worker').initContainers![0]!;
    init.image = firstContainer(objects, 'Deployment', 'generation-worker').image;
    init.command = ['node', 'packages/model-tools/dist/fetch-cli.js'];
    const { status, problems } = validateObjects('models-download.yaml', objects);
    expect(problems).toEqual([
      'Deployment/generation-worker container models-init: downloads the models when the pod starts',
      expect.stringMatching(
        /^Deployment\/generation-worker container generation-worker: no init container of the models image \(models:sha-[0-9a-f]{16}, built from models\/manifest.json\) fills its models volume "models"$/,
      ),
    ]);
    expect(status).toBe(1);
  });

  test('a models image of another manifest is reported', () => {
    const objects = renderOverlay('prod');
    podOf(objects, 'Deployment', 'generation').initContainers![0]!.image = 'productgen/models:sha-0123456789abcdef';
    const { status, problems } = validateObjects('models-stale.yaml', objects);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^Deployment\/generation container generation: no init container of the models image/);
    expect(status).toBe(1);
  });

  test('a writable models volume is reported', () => {
    const objects = renderOverlay('prod');
    const mount = firstContainer(objects, 'Deployment', 'generation').volumeMounts!.find(
      (entry) => entry.name === 'models',
    )!;
    delete mount.readOnly;
    const { status, problems } = validateObjects('models-writable.yaml', objects);
    expect(problems).toEqual([
      'Deployment/generation container generation: the models volume must be mounted read-only',
    ]);
    expect(status).toBe(1);
  });
});

describe('YAML 1.1 booleans', () => {
  test('every unquoted off in a rendered release is reported with its line', () => {
    const objects = renderOverlay('prod');
    // A YAML 1.2 writer leaves strings such as off unquoted: GENERATION_WORKER and the Ingress's request buffering.
    const file = writeScratch('yaml11.yaml', asYaml(objects, {}));
    const { status, problems } = validate('kubernetes', file);
    expect(problems).toHaveLength(2);
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const problem of problems) {
      const match =
        /yaml11\.yaml:(\d+): off is unquoted, and a YAML 1\.1 reader takes it for a boolean: write 'off'$/.exec(
          problem,
        );
      expect(match).not.toBeNull();
      expect(lines[Number(match![1]) - 1]).toMatch(/(value|proxy-request-buffering): off$/);
    }
    expect(status).toBe(1);
  });

  test("an unquoted off in a kustomization's source file is reported, though kustomize's output quotes it", () => {
    const copy = mkdtempSync(path.join(scratch, 'k8s-'));
    cpSync(path.join(root, 'k8s'), copy, { recursive: true });
    const generation = path.join(copy, 'base', 'workloads', 'generation.yaml');
    writeFileSync(generation, readFileSync(generation, 'utf8').replace("value: 'off'", 'value: off'));
    const { status, problems } = validate('kubernetes', path.join(copy, 'overlays', 'prod'));
    expect(problems).toEqual([
      expect.stringMatching(/base\/workloads\/generation\.yaml:\d+: off is unquoted, and a YAML 1\.1 reader/),
    ]);
    expect(status).toBe(1);
  });

  test('an unquoted off in the compose file is reported', () => {
    const text = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    expect(text).toContain("GENERATION_WORKER: 'off'");
    const file = writeScratch('yaml11-compose.yml', text.replace("GENERATION_WORKER: 'off'", 'GENERATION_WORKER: off'));
    const { status, problems } = validate('compose', file);
    expect(problems).toEqual([expect.stringMatching(/yaml11-compose\.yml:\d+: off is unquoted/)]);
    expect(status).toBe(1);
  });
});

describe('docker compose', () => {
  const compose = () => YAML.parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
  const composeYaml = (document: unknown) => YAML.stringify(document, { schema: 'yaml-1.1' });

  test('the compose file passes the compose specification schema and the rules', () => {
    const { status, output } = validate('compose', 'docker-compose.yml');
    expect(output).toContain('0 problems');
    expect(status).toBe(0);
  });

  test('a port list written as a number fails the schema', () => {
    const document = compose();
    document.services.gateway.ports = 8080;
    const { status, output } = validate('compose', writeScratch('ports.yml', composeYaml(document)));
    expect(output).toContain('/services/gateway/ports');
    expect(status).toBe(1);
  });

  test('a service using MongoDB that does not wait for its migration breaks the rules', () => {
    const document = compose();
    delete document.services.billing.depends_on['billing-migrate'];
    const { status, output } = validate('compose', writeScratch('migration.yml', composeYaml(document)));
    expect(output).toContain('/services/billing: uses MongoDB but does not wait for its migration');
    expect(status).toBe(1);
  });

  test('waiting for a service without a healthcheck breaks the rules', () => {
    const document = compose();
    delete document.services.billing.healthcheck;
    const { status, output } = validate('compose', writeScratch('health.yml', composeYaml(document)));
    expect(output).toContain('waits for "billing" to be healthy, which has no healthcheck');
    expect(status).toBe(1);
  });

  test('a container without a memory limit is reported', () => {
    const document = compose();
    delete document.services.billing.mem_limit;
    const { status, problems } = validate('compose', writeScratch('memory.yml', composeYaml(document)));
    expect(problems).toEqual(['/services/billing: no memory limit (mem_limit or deploy.resources.limits.memory)']);
    expect(status).toBe(1);
  });

  test('a container whose logs are not rotated is reported', () => {
    const document = compose();
    document.services.mongo.logging = { driver: 'json-file' };
    const { status, problems } = validate('compose', writeScratch('logging.yml', composeYaml(document)));
    expect(problems).toEqual(['/services/mongo: logs are not rotated (logging: json-file with max-size and max-file)']);
    expect(status).toBe(1);
  });

  test('a data store published on every interface is reported', () => {
    const document = compose();
    document.services.mongo.ports = ['27017:27017'];
    const { status, problems } = validate('compose', writeScratch('exposed.yml', composeYaml(document)));
    expect(problems).toEqual(['/services/mongo: port "27017:27017" is published on every interface: bind 127.0.0.1']);
    expect(status).toBe(1);
  });

  test('a password with a fallback value is reported', () => {
    const text = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    const required = '${RABBITMQ_PASSWORD:?set RABBITMQ_PASSWORD in .env}';
    expect(text).toContain(required);
    const file = writeScratch('fallback.yml', text.replaceAll(required, '${RABBITMQ_PASSWORD:-productgen-secret}'));
    const { status, problems } = validate('compose', file);
    expect(problems).toContain(
      '${RABBITMQ_PASSWORD:-productgen-secret}: a secret with a fallback value; require it with ${RABBITMQ_PASSWORD:?message}',
    );
    expect(problems).toContain(
      '/services/rabbitmq: RABBITMQ_DEFAULT_PASS must be required from .env (${VAR:?message})',
    );
    expect(status).toBe(1);
  });

  test('MongoDB without authentication, a replica set without a key file and a MONGO_URL without credentials are reported', () => {
    const document = compose();
    const required = '${MONGO_INITDB_ROOT_PASSWORD:?set MONGO_INITDB_ROOT_PASSWORD in .env}';
    expect(document.services.mongo.environment.MONGO_INITDB_ROOT_PASSWORD).toBe(required);
    delete document.services.mongo.environment;
    document.services.mongo.command = ['mongod', '--replSet', 'rs0', '--bind_ip_all'];
    document.services.auth.environment.MONGO_URL = 'mongodb://mongo:27017/?replicaSet=rs0';
    const { status, problems } = validate('compose', writeScratch('mongo-auth.yml', composeYaml(document)));
    expect(problems).toEqual([
      '/services/mongo: MongoDB runs without authentication: require MONGO_INITDB_ROOT_USERNAME and MONGO_INITDB_ROOT_PASSWORD from .env (${VAR:?message})',
      '/services/mongo: a replica set with authentication needs --keyFile',
      '/services/auth: MONGO_URL has no credentials (mongodb://user:password@host/?authSource=admin)',
    ]);
    expect(status).toBe(1);
  });

  test('an example environment with the dev identity provider on is reported', () => {
    const dir = mkdtempSync(path.join(scratch, 'example-env-'));
    const file = path.join(dir, 'docker-compose.yml');
    writeFileSync(file, readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'));
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    expect(example).toMatch(/^DEV_IDENTITY_PROVIDER=$/m);
    writeFileSync(
      path.join(dir, '.env.example'),
      example.replace(/^DEV_IDENTITY_PROVIDER=$/m, 'DEV_IDENTITY_PROVIDER=true'),
    );
    const { status, problems } = validate('compose', file);
    expect(problems).toEqual([
      `${dir}/.env.example: DEV_IDENTITY_PROVIDER=true while /services/gateway is published on every interface: leave it off in the example`,
      `${dir}/.env.example: DEV_IDENTITY_PROVIDER=true while /services/shell is published on every interface: leave it off in the example`,
    ]);
    expect(status).toBe(1);
  });

  test('a container that downloads the models at start is reported', () => {
    const document = compose();
    document.services['models-init'].command = ['node', 'packages/model-tools/dist/fetch-cli.js'];
    const { status, problems } = validate('compose', writeScratch('models-download.yml', composeYaml(document)));
    expect(problems).toEqual(['/services/models-init: downloads the models when it starts']);
    expect(status).toBe(1);
  });

  test('a models image of another manifest is reported', () => {
    const document = compose();
    document.services['models-init'].image = 'productgen/models:sha-0123456789abcdef';
    const { status, problems } = validate('compose', writeScratch('models-stale.yml', composeYaml(document)));
    expect(problems).toEqual([
      expect.stringMatching(
        /^\/services\/models-init: copies the models of productgen\/models:sha-0123456789abcdef, not of this manifest \(models:sha-[0-9a-f]{16}\)$/,
      ),
      expect.stringMatching(/^\/services\/generation: does not wait for a container of the models image/),
      expect.stringMatching(/^\/services\/generation-worker: does not wait for a container of the models image/),
    ]);
    expect(status).toBe(1);
  });

  test('a writable models volume is reported', () => {
    const document = compose();
    document.services['generation-worker'].volumes = ['models:/models'];
    const { status, problems } = validate('compose', writeScratch('models-writable.yml', composeYaml(document)));
    expect(problems).toEqual(['/services/generation-worker: the models volume must be mounted read-only (:ro)']);
    expect(status).toBe(1);
  });
});

describe('Dockerfiles', () => {
  const service = () => readFileSync(path.join(root, 'docker', 'service.Dockerfile'), 'utf8');

  test('the image patterns and the models image pass the linter and the rules', () => {
    const { status, output } = validate(
      'dockerfile',
      'docker/service.Dockerfile',
      'docker/web.Dockerfile',
      'docker/models.Dockerfile',
    );
    expect(output.match(/0 problems/g)).toHaveLength(3);
    expect(status).toBe(0);
  });

  test('an unknown instruction fails the linter', () => {
    const file = writeScratch(
      'typo.Dockerfile',
      service().replace('WORKDIR /app\nCOPY --from=manifests', 'WORKDIRR /app\nCOPY --from=manifests'),
    );
    const { status, output } = validate('dockerfile', file);
    expect(output).toContain('Unknown instruction: WORKDIRR');
    expect(status).toBe(1);
  });

  test('an image running as root breaks the rules', () => {
    const file = writeScratch('root.Dockerfile', service().replace('USER node\n', ''));
    const { status, output } = validate('dockerfile', file);
    expect(output).toContain('the final stage must switch to a non-root USER');
    expect(status).toBe(1);
  });
});

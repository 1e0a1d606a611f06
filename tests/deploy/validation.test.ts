import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

function validate(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('node', [validator, ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function writeScratch(name: string, text: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, text);
  return file;
}

/** A rendered object, loosely typed: the tests reach into it to plant one mistake. */
interface Manifest {
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown>;
  data?: Record<string, string>;
}
interface PodSpecHolder {
  template: { spec: { containers: Array<{ securityContext: Record<string, unknown> }> } };
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
/** The first container of a Deployment's or Job's pod template. */
const firstContainer = (objects: Manifest[], kind: string, name: string) =>
  (find(objects, kind, name).spec as unknown as PodSpecHolder).template.spec.containers[0]!;
const asYaml = (objects: Manifest[]) => objects.map((object) => YAML.stringify(object)).join('---\n');

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

describe('docker compose', () => {
  const compose = () => YAML.parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true });

  test('the compose file passes the compose specification schema and the rules', () => {
    const { status, output } = validate('compose', 'docker-compose.yml');
    expect(output).toContain('0 problems');
    expect(status).toBe(0);
  });

  test('a port list written as a number fails the schema', () => {
    const document = compose();
    document.services.gateway.ports = 8080;
    const { status, output } = validate('compose', writeScratch('ports.yml', YAML.stringify(document)));
    expect(output).toContain('/services/gateway/ports');
    expect(status).toBe(1);
  });

  test('a service using MongoDB that does not wait for its migration breaks the rules', () => {
    const document = compose();
    delete document.services.billing.depends_on['billing-migrate'];
    const { status, output } = validate('compose', writeScratch('migration.yml', YAML.stringify(document)));
    expect(output).toContain('/services/billing: uses MongoDB but does not wait for its migration');
    expect(status).toBe(1);
  });

  test('waiting for a service without a healthcheck breaks the rules', () => {
    const document = compose();
    delete document.services.billing.healthcheck;
    const { status, output } = validate('compose', writeScratch('health.yml', YAML.stringify(document)));
    expect(output).toContain('waits for "billing" to be healthy, which has no healthcheck');
    expect(status).toBe(1);
  });
});

describe('Dockerfiles', () => {
  const service = () => readFileSync(path.join(root, 'docker', 'service.Dockerfile'), 'utf8');

  test('both image patterns pass the linter and the rules', () => {
    const { status, output } = validate('dockerfile', 'docker/service.Dockerfile', 'docker/web.Dockerfile');
    expect(output.match(/0 problems/g)).toHaveLength(2);
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

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

// scripts/mfe-release.mjs without a cluster: the manifests of a published version pass the same offline checks as
// the overlays, and switch / roll back change exactly one registry entry (here in a registry file, as compose and
// npm start use; on a cluster the same change goes to the web-registry ConfigMap).
const root = path.resolve(__dirname, '..', '..');
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'mfe-release-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(script: string, ...args: string[]) {
  const result = spawnSync('node', [path.join(root, 'scripts', script), ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('a published version is its own restricted workload that passes the Kubernetes schemas and rules', () => {
  const published = run(
    'mfe-release.mjs',
    'publish',
    'create',
    '0.2.0',
    '--image',
    'registry.example/mfe-create:0.2.0',
    '--dry-run',
  );
  expect(published.status).toBe(0);
  expect(published.stdout).toContain('name: mfe-create-v0-2-0');
  expect(published.stdout).toContain('image: registry.example/mfe-create:0.2.0');
  // The script applies them with `kubectl --namespace productgen` (its default); the rules want every object's
  // namespace, so it is written in as that apply sets it.
  const inNamespace = YAML.parseAllDocuments(published.stdout).map((document) => {
    const object = document.toJS() as { metadata: Record<string, unknown> };
    object.metadata.namespace = 'productgen';
    return YAML.stringify(object, { schema: 'yaml-1.1' });
  });
  const file = path.join(scratch, 'published.yaml');
  writeFileSync(file, inNamespace.join('---\n'));
  const checked = run('deploy/validate.mjs', 'kubernetes', file);
  expect(checked.stdout).toContain('4 checked, 0 problems');
  expect(checked.status).toBe(0);
});

test('switch changes one registry entry, and switching back restores the registry exactly', () => {
  const registry = path.join(scratch, 'remotes.json');
  copyFileSync(path.join(root, 'docker', 'web', 'remotes.json'), registry);
  const before = readFileSync(registry, 'utf8');
  const released = run('mfe-release.mjs', 'switch', 'create', '0.2.0', '--file', registry);
  expect(released.stdout).toContain('mfe_create: 0.1.0 → 0.2.0');
  const after = JSON.parse(readFileSync(registry, 'utf8')) as Record<string, string>;
  expect(after).toEqual({ ...JSON.parse(before), mfe_create: '/mfe/create/0.2.0/mf-manifest.json' });

  const rolledBack = run('mfe-release.mjs', 'switch', 'create', '0.1.0', '--file', registry);
  expect(rolledBack.stdout).toContain('mfe_create: 0.2.0 → 0.1.0');
  expect(readFileSync(registry, 'utf8')).toBe(before);
});

test('an unknown microfrontend or a malformed version is refused and the registry is left alone', () => {
  const registry = path.join(scratch, 'untouched.json');
  copyFileSync(path.join(root, 'docker', 'web', 'remotes.json'), registry);
  const before = readFileSync(registry, 'utf8');
  const unknown = run('mfe-release.mjs', 'switch', 'checkout', '1.0.0', '--file', registry);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain('unknown microfrontend "checkout"');
  const malformed = run('mfe-release.mjs', 'switch', 'create', 'latest', '--file', registry);
  expect(malformed.status).toBe(1);
  expect(malformed.stderr).toContain('"latest" is not a version such as 1.4.0');
  expect(readFileSync(registry, 'utf8')).toBe(before);
});

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@productgen/service-kit';
import { LoopbackServers } from '@productgen/test-kit';
import { createShellHost, isPublishedVersion, shellHostConfigSchema } from '../src';

// The shell host forwards /mfe/<name>/<version>/ to that version's host. The name and version come from the
// request, so they must never choose the host: only a known microfrontend at the version the registry publishes
// is forwarded. An "attacker" host on loopback records every request that reaches it.

const logger = createLogger({ service: 'upstream-names-test', level: 'silent' });
const servers = new LoopbackServers();
const attackerRequests: string[] = [];
let root: string;
let attackerPort: number;
/** Kubernetes' template, the name and version in the host name. */
let hostTemplateShell: number;
/** Every name forwarded to the recording host (the name in the path), to see what is forwarded at all. */
let pathTemplateShell: number;

/** A loopback server's port: the hostile paths below name it. */
const listen = async (app: http.RequestListener): Promise<number> => Number(new URL(await servers.listen(app)).port);

/** GET with the path exactly as written (fetch would normalise dot segments and some escapes first). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: rawPath }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

function shellHost(registryFile: string, shellDist: string, template: string): Promise<number> {
  const config = shellHostConfigSchema.parse({
    WEB_HOST_ROLE: 'shell',
    STATIC_DIR: shellDist,
    REGISTRY_FILE: registryFile,
    MFE_UPSTREAM: template,
    API_PUBLIC_URL: 'http://api.example.test',
  });
  return listen(createShellHost(config, logger));
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'upstream-names-'));
  const shellDist = path.join(root, 'shell');
  await mkdir(shellDist, { recursive: true });
  await writeFile(path.join(shellDist, 'index.html'), '<!doctype html><title>shell</title>');
  const registryFile = path.join(root, 'remotes.json');
  await writeFile(
    registryFile,
    JSON.stringify({
      mfe_create: '/mfe/create/1.0.0/mf-manifest.json',
      // In the registry but not a microfrontend of the platform.
      mfe_evil: '/mfe/evil/1.0.0/mf-manifest.json',
    }),
  );
  attackerPort = await listen((req, res) => {
    attackerRequests.push(req.url ?? '');
    res.setHeader('Content-Type', 'text/html');
    res.end('<script>alert(document.cookie)</script>');
  });
  hostTemplateShell = await shellHost(registryFile, shellDist, 'http://mfe-{name}-{version}:8080');
  pathTemplateShell = await shellHost(registryFile, shellDist, `http://127.0.0.1:${attackerPort}/{name}`);
});

beforeEach(() => {
  attackerRequests.length = 0;
});

afterAll(async () => {
  await servers.close();
  await rm(root, { recursive: true, force: true });
});

test('hostile names and versions are refused with 404 before anything is fetched', async () => {
  const at = `127.0.0.1%3A${attackerPort}`;
  const hostile = [
    // The request: ':' and '#' end the host name early.
    '/mfe/x.attacker.example%3A80%23/0.1.0/a.html',
    // '@' turns the template's "mfe-" into user info, so the host is the attacker's.
    `/mfe/x%40${at}%23/0.1.0/a.html`,
    `/mfe/x%40${at}%2F/0.1.0/a.html`,
    `/mfe/create/1.0.0%40${at}%23/a.html`,
    `/mfe/create%40${at}%3F/1.0.0/a.html`,
    // Dot segments, raw and encoded.
    '/mfe/../1.0.0/a.html',
    '/mfe/%2E%2E/1.0.0/a.html',
    '/mfe/create/1.0.0/%2E%2E/%2E%2E/evil/1.0.0/a.html',
    '/mfe/..%2F..%2Fevil/1.0.0/a.html',
    // Unicode look-alikes of a known name and of a dot.
    '/mfe/cr%C3%A9ate/1.0.0/a.html',
    '/mfe/create/1%EF%BC%8E0%EF%BC%8E0/a.html',
    // Backslash, space and NUL.
    '/mfe/create%5C%40evil/1.0.0/a.html',
    '/mfe/create%20/1.0.0/a.html',
    '/mfe/create%00/1.0.0/a.html',
  ];
  for (const rawPath of hostile) {
    const answer = await rawGet(hostTemplateShell, rawPath);
    expect({ rawPath, status: answer.status }).toEqual({ rawPath, status: 404 });
    expect(answer.body).not.toContain('<script>');
  }
  expect(attackerRequests).toEqual([]);
});

test('only a known microfrontend at the version the registry publishes is forwarded', async () => {
  const port = pathTemplateShell;
  expect((await rawGet(port, '/mfe/create/1.0.0/remoteEntry.js')).status).toBe(200);
  expect(attackerRequests).toEqual(['/mfe/create/1.0.0/remoteEntry.js']);
  attackerRequests.length = 0;
  for (const rawPath of [
    // Well formed, but not the published version.
    '/mfe/create/1.0.1/remoteEntry.js',
    // In the registry, not a microfrontend of the platform.
    '/mfe/evil/1.0.0/remoteEntry.js',
    // A microfrontend the registry does not publish.
    '/mfe/tools/1.0.0/remoteEntry.js',
  ]) {
    expect({ rawPath, status: (await rawGet(port, rawPath)).status }).toEqual({ rawPath, status: 404 });
  }
  expect(attackerRequests).toEqual([]);
});

test('isPublishedVersion accepts exactly the registered name and version', () => {
  const registry = { mfe_create: '/mfe/create/1.2.3-rc.1/mf-manifest.json' };
  expect(isPublishedVersion(registry, 'create', '1.2.3-rc.1')).toBe(true);
  expect(isPublishedVersion(registry, 'create', '1.2.3')).toBe(false);
  expect(isPublishedVersion(registry, 'create', '1.2.3-rc.1#')).toBe(false);
  expect(isPublishedVersion(registry, 'Create', '1.2.3-rc.1')).toBe(false);
  // Inherited properties of the registry object are not entries.
  expect(isPublishedVersion({}, 'constructor', '1.0.0')).toBe(false);
});

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '@productgen/service-kit';
import {
  createMicrofrontendHost,
  createShellHost,
  microfrontendHostConfigSchema,
  shellHostConfigSchema,
} from '@productgen/web-host';
import { createWebApp, findMicrofrontendBuilds, publishMicrofrontend } from '../../packages/devstack/src/web';
import { repoRoot } from '@productgen/test-kit/platform-process';

// The security headers of both web origins (embedded mode's web server, distributed mode's shell host and a
// microfrontend host), on every kind of answer: the page documents, the runtime config and registry, built scripts,
// not-found answers. The script policy allows inline script only with the answer's own nonce, which the page's
// executable inline scripts carry and nothing else does.

const logger = createLogger({ service: 'web-origin-headers-test', level: 'silent' });
const servers: http.Server[] = [];
const API_PORT = 8123;
const TRACKING_URL = 'https://tracking.example/pixel.js';
let root: string;
let embeddedPort: number;
let shellHostPort: number;
let mfeHostPort: number;
let marketingVersion: string;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function listen(app: http.RequestListener): Promise<number> {
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A GET with any Host and extra headers (fetch would not send a made-up Host). */
function get(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: urlPath, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
}

/** The policy as directive → sources. */
function policyOf(answer: Answer): Map<string, string[]> {
  const header = answer.headers['content-security-policy'];
  if (typeof header !== 'string') throw new Error('no Content-Security-Policy');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function nonceOf(answer: Answer): string {
  const nonces = (policyOf(answer).get('script-src') ?? []).flatMap(
    (source) => /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(source)?.[1] ?? [],
  );
  expect(nonces).toHaveLength(1);
  return nonces[0]!;
}

/** Sources that would let an injected script run. */
const PERMISSIVE_SCRIPT_SOURCES = new Set([
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'unsafe-hashes'",
  '*',
  'data:',
  'blob:',
  'http:',
  'https:',
]);

function expectSecurityHeaders(answer: Answer, label: string): void {
  const policy = policyOf(answer);
  const scripts = policy.get('script-src') ?? [];
  const permissive = scripts.filter((source) => PERMISSIVE_SCRIPT_SOURCES.has(source));
  expect({ label, permissive }).toEqual({ label, permissive: [] });
  expect({ label, frameAncestors: policy.get('frame-ancestors') }).toEqual({ label, frameAncestors: ["'none'"] });
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  expect({ label, headers: answer.headers }).toMatchObject({
    label,
    headers: {
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'permissions-policy': expect.stringMatching(/camera=\(\).*microphone=\(\).*geolocation=\(\)/),
    },
  });
  // Plain http: a browser told to use https only would lock itself out of the http origin.
  expect(answer.headers['strict-transport-security']).toBeUndefined();
}

/** Every <script> that would run (no data-block type) carries exactly the answer's nonce. */
function expectScriptsNonced(answer: Answer): void {
  const nonce = nonceOf(answer);
  const tags = answer.body.match(/<script\b[^>]*>/gi) ?? [];
  const executable = tags.filter((tag) => !/type="?application\/(ld\+)?json/i.test(tag));
  expect(executable.length).toBeGreaterThan(0);
  for (const tag of executable) expect(tag).toContain(`nonce="${nonce}"`);
  for (const tag of tags.filter((candidate) => !executable.includes(candidate))) expect(tag).not.toContain('nonce');
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'web-origin-headers-'));
  const marketing = (await findMicrofrontendBuilds(repoRoot)).find((build) => build.shortName === 'marketing');
  if (!marketing) throw new Error('mfe-marketing is not built: run `npm run build -w @productgen/mfe-marketing`');
  marketingVersion = marketing.version;
  const webRoot = path.join(root, 'web');
  await publishMicrofrontend(webRoot, marketing);
  const shellDistDir = path.join(repoRoot, 'shell', 'dist');
  embeddedPort = await listen(
    createWebApp({
      shellDistDir,
      webRoot,
      runtimeConfig: {
        apiPort: API_PORT,
        googleClientId: '',
        productName: 'ProductGen',
        devIdentityProvider: true,
        trackingScripts: { analytics: TRACKING_URL },
      },
    }),
  );

  mfeHostPort = await listen(
    createMicrofrontendHost(
      microfrontendHostConfigSchema.parse({
        WEB_HOST_ROLE: 'microfrontend',
        STATIC_DIR: marketing.distDir,
        MFE_NAME: 'marketing',
        MFE_VERSION: marketing.version,
      }),
      logger,
    ),
  );
  const registryFile = path.join(root, 'remotes.json');
  await mkdir(root, { recursive: true });
  await writeFile(
    registryFile,
    JSON.stringify({ mfe_marketing: `/mfe/marketing/${marketing.version}/mf-manifest.json` }),
  );
  shellHostPort = await listen(
    createShellHost(
      shellHostConfigSchema.parse({
        WEB_HOST_ROLE: 'shell',
        STATIC_DIR: shellDistDir,
        REGISTRY_FILE: registryFile,
        MFE_UPSTREAMS: `marketing=http://127.0.0.1:${mfeHostPort}`,
        API_PUBLIC_URL: 'https://api.productgen.example',
        GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com',
        ANALYTICS_SCRIPT_URL: TRACKING_URL,
      }),
      logger,
    ),
  );
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await rm(root, { recursive: true, force: true });
});

describe.each([
  { origin: 'embedded mode', port: () => embeddedPort },
  { origin: "distributed mode's shell host", port: () => shellHostPort },
])('$origin', ({ port }) => {
  const answerPaths = () => [
    '/',
    '/fashion-product-photos',
    '/pricing',
    '/image-upscaler',
    '/no-such-page',
    '/runtime-config.json',
    '/remotes.json',
    `/mfe/marketing/${marketingVersion}/remoteEntry.js`,
    '/missing.js',
  ];

  test('every kind of answer carries the security headers', async () => {
    for (const urlPath of answerPaths()) expectSecurityHeaders(await get(port(), urlPath), urlPath);
  });

  test("the pages' inline scripts carry the answer's nonce, a new one per answer", async () => {
    const first = await get(port(), '/');
    const second = await get(port(), '/');
    expectScriptsNonced(first);
    expectScriptsNonced(await get(port(), '/pricing'));
    expect(nonceOf(first)).not.toBe(nonceOf(second));
  });

  test('prerendered content never gets the nonce', async () => {
    const page = await get(port(), '/fashion-product-photos');
    expectScriptsNonced(page);
    const main = /<main id="?pg-main"?>[\s\S]*<\/main>/.exec(page.body)?.[0] ?? '';
    expect(main.length).toBeGreaterThan(100);
    expect(main).not.toContain(nonceOf(page));
  });

  test('the tool pages stay cross-origin isolated and may compile WebAssembly', async () => {
    const tool = await get(port(), '/image-upscaler');
    expect(tool.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(tool.headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(policyOf(tool).get('script-src')).toContain("'wasm-unsafe-eval'");
  });

  test('the configured tracking script may load', async () => {
    expect(policyOf(await get(port(), '/')).get('script-src')).toContain('https://tracking.example');
  });

  test('Strict-Transport-Security only when the answer went out over https', async () => {
    const proxied = await get(port(), '/', { 'X-Forwarded-Proto': 'https' });
    expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect((await get(port(), '/', { 'X-Forwarded-Proto': 'http' })).headers['strict-transport-security']).toBe(
      undefined,
    );
  });
});

test('embedded mode lets the page call the API at the host it was opened at, and only a well-formed host', async () => {
  for (const host of ['127.0.0.1', 'localhost', 'studio.lan']) {
    const policy = policyOf(await get(embeddedPort, '/', { Host: `${host}:3000` }));
    expect(policy.get('connect-src')).toContain(`http://${host}:${API_PORT}`);
    expect(policy.get('img-src')).toContain(`http://${host}:${API_PORT}`);
  }
  const hostile = await get(embeddedPort, '/', { Host: "evil.example'*" });
  expect(hostile.headers['content-security-policy']).not.toMatch(/evil|\*/);
});

test("distributed mode allows the configured API and Google's sign-in", async () => {
  const policy = policyOf(await get(shellHostPort, '/'));
  expect(policy.get('connect-src')).toEqual(
    expect.arrayContaining(['https://api.productgen.example', 'https://accounts.google.com/gsi/']),
  );
  expect(policy.get('script-src')).toContain('https://accounts.google.com/gsi/client');
  expect(policy.get('frame-src')).toContain('https://accounts.google.com/gsi/');
});

test('a microfrontend host answered directly carries the headers too', async () => {
  const entry = await get(mfeHostPort, `/mfe/marketing/${marketingVersion}/remoteEntry.js`);
  expect(entry.status).toBe(200);
  expectSecurityHeaders(entry, 'microfrontend host');
});

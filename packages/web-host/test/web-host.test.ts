import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { createLogger } from '@productgen/service-kit';
import { ROUTE_TABLE } from '../../mf-shared/src/routes';
import {
  TOOL_PATHS,
  createMicrofrontendHost,
  createShellHost,
  microfrontendHostConfigSchema,
  shellHostConfigSchema,
} from '../src';

const logger = createLogger({ service: 'web-host-test', level: 'silent' });
const servers: http.Server[] = [];

async function listen(app: http.RequestListener): Promise<string> {
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let root: string;
let shellUrl: string;
let mfeUrl: string;
let registryFile: string;
/** A built chunk big enough to compress, with the brotli copy the build writes beside it. */
const CHUNK = `export const words = ${JSON.stringify('hashed chunk '.repeat(200))};\n`;
/** The 8 bytes every WebAssembly module starts with (magic and version 1). */
const WASM_HEADER = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'web-host-'));
  const mfeDist = path.join(root, 'mfe-create');
  const shellDist = path.join(root, 'shell');
  await mkdir(mfeDist, { recursive: true });
  await mkdir(shellDist, { recursive: true });
  await writeFile(path.join(mfeDist, 'mf-manifest.json'), '{"name":"mfe_create"}');
  await writeFile(path.join(mfeDist, 'main.0123456789abcdef01.js'), 'export {}');
  await writeFile(path.join(mfeDist, 'chunk.0123456789abcdef01.js'), CHUNK);
  await writeFile(path.join(mfeDist, 'chunk.0123456789abcdef01.js.br'), brotliCompressSync(CHUNK));
  // The tools' inference runtime: webpack's hashed assets, and one file of the same kind without a hash.
  await mkdir(path.join(mfeDist, 'assets'), { recursive: true });
  await writeFile(path.join(mfeDist, 'assets', 'ort-wasm-simd-threaded.4021454bfb72054bdd0e.wasm'), WASM_HEADER);
  await writeFile(path.join(mfeDist, 'assets', 'ort.wasm.bundle.min.0ea3831e9b90c9d44122.mjs'), 'export {}');
  await writeFile(path.join(mfeDist, 'assets', 'runtime.wasm'), WASM_HEADER);
  await writeFile(path.join(shellDist, 'index.html'), '<!doctype html><title>shell</title>');
  registryFile = path.join(root, 'remotes.json');
  await writeFile(registryFile, JSON.stringify({ mfe_create: '/mfe/create/1.0.0/mf-manifest.json' }));

  const mfeConfig = microfrontendHostConfigSchema.parse({
    WEB_HOST_ROLE: 'microfrontend',
    STATIC_DIR: mfeDist,
    MFE_NAME: 'create',
    MFE_VERSION: '1.0.0',
  });
  mfeUrl = await listen(createMicrofrontendHost(mfeConfig, logger));
  const shellConfig = shellHostConfigSchema.parse({
    WEB_HOST_ROLE: 'shell',
    STATIC_DIR: shellDist,
    REGISTRY_FILE: registryFile,
    // One host here serves every name; the request path replaces the template's path.
    MFE_UPSTREAM: `${mfeUrl}/{name}`,
    API_PUBLIC_URL: 'http://api.example.test',
  });
  shellUrl = await listen(createShellHost(shellConfig, logger));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await rm(root, { recursive: true, force: true });
});

test('the shell host forwards a microfrontend version to its host with the cache rules of each file', async () => {
  const manifest = await fetch(`${shellUrl}/mfe/create/1.0.0/mf-manifest.json`);
  expect(manifest.status).toBe(200);
  expect(manifest.headers.get('cache-control')).toBe('no-cache');
  expect(await manifest.json()).toEqual({ name: 'mfe_create' });
  const chunk = await fetch(`${shellUrl}/mfe/create/1.0.0/main.0123456789abcdef01.js`);
  expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(chunk.headers.get('cross-origin-resource-policy')).toBe('same-site');
  expect(chunk.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  // A version this host does not serve is not found, not some other version.
  expect((await fetch(`${shellUrl}/mfe/create/2.0.0/mf-manifest.json`)).status).toBe(404);
});

test("a returning visitor's browser uses the tools' hashed WebAssembly and module scripts without asking again", async () => {
  for (const file of [
    'ort-wasm-simd-threaded.4021454bfb72054bdd0e.wasm',
    'ort.wasm.bundle.min.0ea3831e9b90c9d44122.mjs',
  ]) {
    const asset = await fetch(`${mfeUrl}/mfe/create/1.0.0/assets/${file}`);
    expect({ file, status: asset.status, cache: asset.headers.get('cache-control') }).toEqual({
      file,
      status: 200,
      cache: 'public, max-age=31536000, immutable',
    });
  }
  // Without a content hash its name may be served with other bytes tomorrow: kept for an hour only.
  const unhashed = await fetch(`${mfeUrl}/mfe/create/1.0.0/assets/runtime.wasm`);
  expect(unhashed.headers.get('cache-control')).toBe('public, max-age=3600');
});

test("a browser that takes brotli gets the build's brotli copy, with the headers of the file it asked for", async () => {
  const chunkUrl = `${mfeUrl}/mfe/create/1.0.0/chunk.0123456789abcdef01.js`;
  const brotli = await fetch(chunkUrl, { headers: { 'accept-encoding': 'gzip, br' } });
  expect(brotli.status).toBe(200);
  expect(brotli.headers.get('content-encoding')).toBe('br');
  expect(brotli.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(brotli.headers.get('vary')).toMatch(/accept-encoding/i);
  expect(brotli.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(brotli.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  expect(await brotli.text()).toBe(CHUNK);

  // Without brotli: the file itself, compressed on the fly.
  const gzip = await fetch(chunkUrl, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers.get('content-encoding')).toBe('gzip');
  expect(gzip.headers.get('content-type')).toBe(brotli.headers.get('content-type'));
  expect(await gzip.text()).toBe(CHUNK);
  // A file without a copy is still not found.
  expect((await fetch(`${mfeUrl}/mfe/create/1.0.0/missing.0123456789abcdef01.js`)).status).toBe(404);
});

test('changing the one registry entry is seen on the next request', async () => {
  expect(await (await fetch(`${shellUrl}/remotes.json`)).json()).toEqual({
    mfe_create: '/mfe/create/1.0.0/mf-manifest.json',
  });
  await writeFile(registryFile, JSON.stringify({ mfe_create: '/mfe/create/1.1.0/mf-manifest.json' }));
  const next = await fetch(`${shellUrl}/remotes.json`);
  expect(next.headers.get('cache-control')).toBe('no-cache');
  expect(await next.json()).toEqual({ mfe_create: '/mfe/create/1.1.0/mf-manifest.json' });
});

test('tool pages are cross-origin isolated, other pages are not', async () => {
  const tool = await fetch(`${shellUrl}/image-upscaler`);
  expect(tool.status).toBe(200);
  expect(tool.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(tool.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  const pricing = await fetch(`${shellUrl}/pricing`);
  // The page document: the shell with the page's own head.
  expect(await pricing.text()).toContain('<title>Pricing | ProductGen</title>');
  expect(pricing.headers.get('cross-origin-embedder-policy')).toBeNull();
});

test('the runtime config never offers the dev identity provider in production', async () => {
  const config = await (await fetch(`${shellUrl}/runtime-config.json`)).json();
  expect(config).toEqual({
    apiBaseUrl: 'http://api.example.test',
    googleClientId: '',
    productName: 'ProductGen',
    devIdentityProvider: false,
    // No analytics or pixel script unless configured.
    trackingScripts: {},
  });
});

test('the isolated paths are exactly the tool routes of the route table', () => {
  const toolRoutes = ROUTE_TABLE.filter((route) => route.owner === 'mfe_tools').map((route) => route.path);
  expect([...TOOL_PATHS].sort()).toEqual(toolRoutes.sort());
});

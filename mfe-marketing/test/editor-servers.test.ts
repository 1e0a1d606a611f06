/**
 * @jest-environment node
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LoopbackServers } from '@productgen/test-kit';

// The content editor's servers (editor/servers.js): Decap's local backend writes only under mfe-marketing/content,
// and both servers answer only requests addressed to a loopback name from a loopback page (a page that points its
// own host name at 127.0.0.1, DNS rebinding, gets nothing). Run on a scratch copy of the repository's layout.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createEditorApp, createEditorBackend } = require('../editor/servers') as {
  createEditorApp: (options: { config: string; decapDir: string; indexFile: string }) => import('express').Express;
  createEditorBackend: (options: {
    repoRoot: string;
    contentDir: string;
    editorOrigin: string;
    logLevel?: string;
  }) => Promise<import('express').Express>;
};

let repo: string;
let contentDir: string;
const servers = new LoopbackServers();
let backendPort: number;
let editorPort: number;

/** The port of an app served on loopback. */
const listen = async (app: import('express').Express) => Number(new URL(await servers.listen(app)).port);

/** One request with the given Host and Origin (fetch does not let a caller choose the Host header). */
function send(
  port: number,
  {
    method = 'POST',
    pathname = '/api/v1',
    host = `127.0.0.1:${port}`,
    origin,
    body,
  }: {
    method?: string;
    pathname?: string;
    host?: string;
    origin?: string;
    body?: unknown;
  },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: pathname,
        headers: {
          host,
          ...(origin ? { origin } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.once('error', reject);
    request.end(payload);
  });
}

const persistEntry = (file: string, raw = '---\ntitle: New\n---\nText\n') => ({
  action: 'persistEntry',
  params: {
    branch: 'main',
    dataFiles: [{ slug: 'new', path: file, raw }],
    assets: [],
    options: { commitMessage: 'edit', useWorkflow: false, status: 'draft' },
  },
});

beforeAll(async () => {
  repo = mkdtempSync(path.join(tmpdir(), 'productgen-editor-'));
  contentDir = path.join(repo, 'mfe-marketing', 'content');
  mkdirSync(path.join(contentDir, 'media'), { recursive: true });
  mkdirSync(path.join(repo, 'mfe-marketing', 'src'), { recursive: true });
  writeFileSync(path.join(contentDir, 'pricing.md'), '---\ntitle: Pricing\n---\n');
  writeFileSync(path.join(repo, 'package.json'), '{"name":"original"}');
  backendPort = await listen(
    await createEditorBackend({ repoRoot: repo, contentDir, editorOrigin: 'http://127.0.0.1:3100', logLevel: 'error' }),
  );
  editorPort = await listen(
    createEditorApp({ config: 'backend: {}\n', decapDir: repo, indexFile: path.join(contentDir, 'pricing.md') }),
  );
});

afterAll(async () => {
  await servers.close();
  rmSync(repo, { recursive: true, force: true });
});

describe('the editor backend writes only under mfe-marketing/content', () => {
  it('writes a page and a media file there', async () => {
    const page = await send(backendPort, {
      origin: 'http://127.0.0.1:3100',
      body: persistEntry('mfe-marketing/content/garden.md'),
    });
    expect(page.status).toBe(200);
    expect(readFileSync(path.join(contentDir, 'garden.md'), 'utf8')).toContain('title: New');
    const media = await send(backendPort, {
      body: {
        action: 'persistMedia',
        params: {
          branch: 'main',
          asset: { path: 'mfe-marketing/content/media/pot.png', content: 'iVBORw0K', encoding: 'base64' },
          options: { commitMessage: 'upload' },
        },
      },
    });
    expect(media.status).toBe(200);
    expect(existsSync(path.join(contentDir, 'media', 'pot.png'))).toBe(true);
  });

  it.each([
    ['a file of the repository', 'package.json'],
    ['source code next to the content', 'mfe-marketing/src/injected.ts'],
    ['a path climbing out of the content folder', 'mfe-marketing/content/../src/injected.ts'],
    ['an absolute path', '/tmp/productgen-editor-outside.md'],
  ])('refuses to write %s (403, nothing written)', async (_case, file) => {
    const response = await send(backendPort, { body: persistEntry(file, 'overwritten') });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({
      error: `The editor reads and writes only under mfe-marketing/content: "${file}" is outside it.`,
    });
    expect(readFileSync(path.join(repo, 'package.json'), 'utf8')).toBe('{"name":"original"}');
    expect(existsSync(path.join(repo, 'mfe-marketing', 'src', 'injected.ts'))).toBe(false);
    expect(existsSync('/tmp/productgen-editor-outside.md')).toBe(false);
  });

  it('refuses a page renamed out of the folder, a media upload, a delete and a read outside it', async () => {
    const calls = [
      {
        action: 'persistEntry',
        params: {
          ...persistEntry('mfe-marketing/content/pricing.md').params,
          dataFiles: [{ slug: 'p', path: 'mfe-marketing/content/pricing.md', raw: 'x', newPath: 'package.json' }],
        },
      },
      {
        action: 'persistMedia',
        params: {
          branch: 'main',
          asset: { path: 'mfe-marketing/src/x.png', content: 'iVBORw0K', encoding: 'base64' },
          options: { commitMessage: 'upload' },
        },
      },
      { action: 'deleteFiles', params: { branch: 'main', paths: ['package.json'], options: { commitMessage: 'x' } } },
      { action: 'getEntry', params: { branch: 'main', path: 'package.json' } },
    ];
    for (const body of calls) expect((await send(backendPort, { body })).status).toBe(403);
    expect(readFileSync(path.join(contentDir, 'pricing.md'), 'utf8')).toBe('---\ntitle: Pricing\n---\n');
    expect(existsSync(path.join(repo, 'package.json'))).toBe(true);
  });

  it('still lists and reads the pages', async () => {
    const listed = await send(backendPort, {
      body: {
        action: 'entriesByFolder',
        params: { branch: 'main', folder: 'mfe-marketing/content', extension: 'md', depth: 1 },
      },
    });
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body).map((entry: { file: { path: string } }) => entry.file.path)).toContain(
      'mfe-marketing/content/pricing.md',
    );
  });
});

describe('both servers answer only at a loopback name, to loopback pages', () => {
  const endpoints = () =>
    [
      ['backend', backendPort, 'POST', '/api/v1'],
      ['editor', editorPort, 'GET', '/config.yml'],
    ] as const;

  it.each(['localhost', '127.0.0.1', '[::1]'])('answers at %s', async (name) => {
    for (const [, port, method, pathname] of endpoints()) {
      const body = method === 'POST' ? { action: 'info' } : undefined;
      const response = await send(port, { method, pathname, host: `${name}:${port}`, body });
      expect(response.status).toBe(200);
    }
  });

  it('refuses another host name, as a page that pointed its own name at 127.0.0.1 would send (DNS rebinding)', async () => {
    for (const [, port, method, pathname] of endpoints()) {
      const body = method === 'POST' ? persistEntry('mfe-marketing/content/rebound.md') : undefined;
      const response = await send(port, {
        method,
        pathname,
        host: `rebind.attacker.example:${port}`,
        origin: `http://rebind.attacker.example:${port}`,
        body,
      });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toEqual({
        error: `The editor answers only at localhost or 127.0.0.1, not at "rebind.attacker.example:${port}".`,
      });
    }
    expect(existsSync(path.join(contentDir, 'rebound.md'))).toBe(false);
  });

  it('refuses a request from a page of another origin, even addressed to 127.0.0.1', async () => {
    for (const origin of ['https://attacker.example', 'null', 'http://127.0.0.1.attacker.example']) {
      const response = await send(backendPort, { origin, body: persistEntry('mfe-marketing/content/cross.md') });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toEqual({
        error: `The editor answers only its own pages, not pages of "${origin}".`,
      });
    }
    expect(existsSync(path.join(contentDir, 'cross.md'))).toBe(false);
  });
});

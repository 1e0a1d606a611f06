import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, repoRoot } from '@productgen/test-kit/platform-process';

// The marketing team's content editor (Decap CMS with its local backend): it lists the real content files, and it
// refuses to run in production, where it would let anyone write the site without signing in.
jest.setTimeout(60_000);

const serve = path.join(repoRoot, 'mfe-marketing', 'editor', 'serve.js');

function startEditor(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, [serve], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

test('serves Decap CMS with its local backend over the content files, on loopback', async () => {
  const [editorPort, backendPort] = [await freePort(), await freePort()];
  const editor = startEditor({
    EDITOR_PORT: String(editorPort),
    EDITOR_BACKEND_PORT: String(backendPort),
    NODE_ENV: 'development',
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const check = () => (editor.output().includes('Content editor:') ? resolve() : undefined);
      editor.child.stdout!.on('data', check);
      void editor.exited.then((code) => reject(new Error(`the editor exited with ${code}: ${editor.output()}`)));
    });
    const page = await (await fetch(`http://127.0.0.1:${editorPort}/`)).text();
    expect(page).toContain('<script src="/decap/decap-cms-app.js"></script>');
    expect((await fetch(`http://127.0.0.1:${editorPort}/decap/decap-cms-app.js`)).status).toBe(200);
    const config = await (await fetch(`http://127.0.0.1:${editorPort}/config.yml`)).text();
    expect(config).toContain('folder: mfe-marketing/content');
    expect(config).toContain(`url: http://127.0.0.1:${backendPort}/api/v1`);

    const listing = await fetch(`http://127.0.0.1:${backendPort}/api/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'entriesByFolder',
        params: { branch: 'main', folder: 'mfe-marketing/content', extension: 'md', depth: 1 },
      }),
    });
    expect(listing.status).toBe(200);
    const entries = (await listing.json()) as Array<{ file: { path: string }; data: string }>;
    const privacy = entries.find((entry) => entry.file.path === 'mfe-marketing/content/privacy.md');
    expect(privacy?.data).toContain('route: /privacy');
    expect(entries.length).toBeGreaterThanOrEqual(27);
  } finally {
    editor.child.kill('SIGTERM');
    await editor.exited;
  }
});

test('refuses to start in production', async () => {
  const editor = startEditor({ NODE_ENV: 'production', EDITOR_PORT: String(await freePort()) });
  expect(await editor.exited).toBe(1);
  expect(editor.output()).toContain('The content editor runs only in development');
});

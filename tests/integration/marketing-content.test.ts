import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@productgen/test-kit/platform-process';
import { standaloneWebApp } from '../support/web-origin';

// The marketing team adds a page by adding one content file: after the marketing build, the new route is in the
// routes manifest the shell reads, in sitemap.xml, and served prerendered with its own meta by the web origin,
// with no change to the shell or any other microfrontend. The build's content step (the part that reads the
// content files; its program is content-independent) runs here on a copy of the content, into a new version folder.
jest.setTimeout(120_000);

const run = promisify(execFile);
const marketingDir = path.join(repoRoot, 'mfe-marketing');
const siteProgram = path.join(marketingDir, '.site-build', 'build-site.js');
const shellIndex = path.join(repoRoot, 'shell', 'dist', 'index.html');

const NEW_PAGE = `---
route: /garden-product-photos
kind: category
title: Garden Product Photos
description: Fresh, sunny product photos for planters, tools and garden furniture, made from a phone photo in your own garden.
hero:
  headline: Garden products in their best light
  lead: Planters, tools and outdoor furniture look their best in fresh, sunny scenes made from one phone photo.
  sample: mug
sections:
  - kind: benefits
    title: Why it works for garden products
    items:
      - title: Sunny scenes
        text: Bright outdoor light that makes planters and tools look fresh.
      - title: Clean catalogue shots
        text: White backgrounds for marketplaces that require them.
      - title: True colours
        text: Greens and terracotta stay the colours customers receive.
      - title: Whole ranges at once
        text: Upload every planter size in one batch.
  - kind: how-it-works
    title: How it works
    steps:
      - title: Take a photo
        text: Photograph the product outdoors in daylight.
      - title: Upload and transform
        text: Upload it and choose sunny or clean looks.
      - title: Download and use
        text: Download the images for your shop.
  - kind: cta
    title: Make your garden range bloom online
    text: Try 10 images free.
---
`;

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

let workDir: string;

beforeAll(async () => {
  for (const built of [siteProgram, shellIndex, path.join(marketingDir, 'dist', 'mf-manifest.json')]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does).`);
  }
  workDir = await mkdtemp(path.join(tmpdir(), 'productgen-content-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

test('a new content file becomes a route, a sitemap entry and a prerendered page with its own meta', async () => {
  const shellBefore = sha(await readFile(shellIndex, 'utf8'));
  const contentDir = path.join(workDir, 'content');
  await cp(path.join(marketingDir, 'content'), contentDir, { recursive: true });
  await writeFile(path.join(contentDir, 'garden-product-photos.md'), NEW_PAGE);

  // A new version of marketing alone: its built code as is, its content step run over the new content.
  const webRoot = path.join(workDir, 'web');
  const versionDir = path.join(webRoot, 'mfe', 'marketing', '9.9.9');
  await mkdir(path.dirname(versionDir), { recursive: true });
  await cp(path.join(marketingDir, 'dist'), versionDir, { recursive: true });
  await run(process.execPath, [siteProgram], {
    env: {
      ...process.env,
      MARKETING_CONTENT_DIR: contentDir,
      MARKETING_OUT_DIR: versionDir,
      SITE_URL: 'https://shop.example',
    },
  });
  await writeFile(
    path.join(webRoot, 'remotes.json'),
    JSON.stringify({ mfe_marketing: '/mfe/marketing/9.9.9/mf-manifest.json' }),
  );

  const app = standaloneWebApp(webRoot);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const manifest = (await (await fetch(`${origin}/mfe/marketing/9.9.9/routes.json`)).json()) as {
      routes: Array<{ path: string; title: string }>;
    };
    expect(manifest.routes).toContainEqual(
      expect.objectContaining({ path: '/garden-product-photos', title: 'Garden Product Photos' }),
    );

    const page = await fetch(`${origin}/garden-product-photos`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Garden Product Photos | ProductGen</title>');
    expect(html).toContain('<link rel="canonical" href="https://shop.example/garden-product-photos" />');
    expect(html).toContain('<meta property="og:title" content="Garden Product Photos | ProductGen" />');
    expect(html).toMatch(/<h1[^>]*>Garden products in their best light<\/h1>/);
    expect(html).toContain('src="/mfe/marketing/9.9.9/demo/');

    const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
    expect(sitemap).toContain('<loc>https://shop.example/garden-product-photos</loc>');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  expect(sha(await readFile(shellIndex, 'utf8'))).toBe(shellBefore);
});

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@productgen/service-kit';
import { LoopbackServers } from '@productgen/test-kit';
import { createMicrofrontendHost, createShellHost, microfrontendHostConfigSchema, shellHostConfigSchema } from '../src';

// Distributed mode's shell host answers every page path with the same documents as embedded mode's web server:
// the prerendered page of the marketing version the registry names, fetched from that version's host.

const logger = createLogger({ service: 'page-documents-test', level: 'silent' });
const servers = new LoopbackServers();
let root: string;
let shellUrl: string;

/** The shell's script, with the answer's CSP nonce. */
const SHELL_SCRIPT = /<script nonce="[A-Za-z0-9+/]{22}==" src=\/main\.js><\/script>/;

// Its inlined CSS makes it as large as the real one (compression leaves answers under 1 KB as they are).
const SHELL_INDEX =
  '<!doctype html><html><head><title>ProductGen</title><meta name=description content="default">' +
  `<link rel=canonical href=/><style>${'body{margin:0}'.repeat(100)}</style></head><body><main id=pg-main></main><script src=/main.js></script></body></html>`;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'page-documents-'));
  const marketingDist = path.join(root, 'mfe-marketing');
  const shellDist = path.join(root, 'shell');
  await mkdir(path.join(marketingDist, 'prerender'), { recursive: true });
  await mkdir(shellDist, { recursive: true });
  await writeFile(path.join(marketingDist, 'mf-manifest.json'), '{"name":"mfe_marketing"}');
  await writeFile(
    path.join(marketingDist, 'routes.json'),
    JSON.stringify({
      siteUrl: 'https://site.example',
      routes: [
        { path: '/fashion-product-photos', slug: 'fashion', canonicalPath: '/fashion-product-photos' },
        { path: '/fashion-photos', slug: 'fashion', canonicalPath: '/fashion-product-photos' },
      ],
      appPages: [{ path: '/image-resizer', slug: 'image-resizer' }],
    }),
  );
  await writeFile(
    path.join(marketingDist, 'prerender', 'image-resizer.json'),
    JSON.stringify({
      head: '<title>Free Image Resizer | ProductGen</title><script type="application/ld+json">{"@type":"FAQPage"}</script>',
      main: '<div><p>Resize a whole set.</p><img src="__MFE_BASE__/mfe_tools/samples/1.webp"><img src="__MFE_BASE__/mfe_nope/x.webp"></div>',
    }),
  );
  await writeFile(
    path.join(marketingDist, 'prerender', 'fashion.json'),
    JSON.stringify({
      head: '<title>Fashion product photos | ProductGen</title><link rel="canonical" href="https://site.example/fashion-product-photos" />',
      main: '<div id="pg-app-mfe_marketing"><h1>Fashion product photos</h1><img src="__MARKETING_BASE__/demo/a.webp"></div>',
    }),
  );
  await writeFile(path.join(marketingDist, 'sitemap.xml'), '<urlset>fashion</urlset>');
  await writeFile(path.join(shellDist, 'index.html'), SHELL_INDEX);
  const registryFile = path.join(root, 'remotes.json');
  await writeFile(
    registryFile,
    JSON.stringify({
      mfe_marketing: '/mfe/marketing/2.1.0/mf-manifest.json',
      mfe_tools: '/mfe/tools/1.4.0/mf-manifest.json',
    }),
  );

  const marketingUrl = await servers.listen(
    createMicrofrontendHost(
      microfrontendHostConfigSchema.parse({
        WEB_HOST_ROLE: 'microfrontend',
        STATIC_DIR: marketingDist,
        MFE_NAME: 'marketing',
        MFE_VERSION: '2.1.0',
      }),
      logger,
    ),
  );
  shellUrl = await servers.listen(
    createShellHost(
      shellHostConfigSchema.parse({
        WEB_HOST_ROLE: 'shell',
        STATIC_DIR: shellDist,
        REGISTRY_FILE: registryFile,
        MFE_UPSTREAMS: `marketing=${marketingUrl}`,
        API_PUBLIC_URL: 'http://api.example.test',
      }),
      logger,
    ),
  );
});

afterAll(async () => {
  await servers.close();
  await rm(root, { recursive: true, force: true });
});

test('a prerendered page gets its own head and markup, with assets under the published version', async () => {
  const response = await fetch(`${shellUrl}/fashion-product-photos`, { headers: { 'accept-encoding': 'br' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-encoding')).toBe('br');
  const html = await response.text();
  expect(html).toContain('<title>Fashion product photos | ProductGen</title>');
  expect(html).toContain('href="https://site.example/fashion-product-photos"');
  expect(html).not.toContain('content="default"');
  expect(html).toContain('<main id="pg-main"><div id="pg-app-mfe_marketing"><h1>Fashion product photos</h1>');
  expect(html).toContain('src="/mfe/marketing/2.1.0/demo/a.webp"');
  // The current shell build's script stays.
  expect(html).toMatch(SHELL_SCRIPT);
});

test('a page of the route table that is not prerendered gets its own head from the route table', async () => {
  const html = await (await fetch(`${shellUrl}/pricing`)).text();
  expect(html).toContain('<title>Pricing | ProductGen</title>');
  expect(html).toContain('<link rel="canonical" href="https://site.example/pricing" />');
  // Its intro (heading and lead) is in the HTML; the shell's scripts remain.
  expect(html).toContain(
    '<main id="pg-main"><section id="pg-page-intro"><h1>Pricing</h1><p>Pay-as-you-go credit packages and a free tier of 10 images to start.</p></section></main>',
  );
  expect(html).toMatch(SHELL_SCRIPT);
  // A private page has no intro.
  expect(await (await fetch(`${shellUrl}/dashboard`)).text()).toContain('<main id=pg-main></main>');
});

test('a public page with a text marketing prerendered for it gets that text in its intro, with its head', async () => {
  const html = await (await fetch(`${shellUrl}/image-resizer`)).text();
  expect(html).toContain('<title>Free Image Resizer | ProductGen</title><script type="application/ld+json">');
  // The route table's heading and lead (what the tool app shows in place), then the text; all of it in the intro
  // the shell removes when the app mounts.
  expect(html).toContain(
    '<main id="pg-main"><section id="pg-page-intro"><h1>Free Image Resizer</h1><p>Resize several images at once',
  );
  expect(html).toMatch(/download\.<\/p><div><p>Resize a whole set\.<\/p>.*<\/div><\/section><\/main>/);
  // Another app's assets point at the version the registry publishes; an unknown app's token stays as it is.
  expect(html).toContain('<img src="/mfe/tools/1.4.0/samples/1.webp">');
  expect(html).toContain('<img src="__MFE_BASE__/mfe_nope/x.webp">');
  // A public page without such a text keeps its plain intro.
  expect(await (await fetch(`${shellUrl}/image-upscaler`)).text()).toMatch(
    /<section id="pg-page-intro"><h1>Free AI Image Upscaler<\/h1><p>[^<]*<\/p><\/section>/,
  );
});

test("an alias answers 301 with its page's own path and the query", async () => {
  const response = await fetch(`${shellUrl}/fashion-photos/?utm_source=mail`, { redirect: 'manual' });
  expect(response.status).toBe(301);
  expect(response.headers.get('location')).toBe('/fashion-product-photos?utm_source=mail');
});

test('an unknown path answers 404 with the shell and a noindex head', async () => {
  const response = await fetch(`${shellUrl}/no-such-page`);
  expect(response.status).toBe(404);
  const html = await response.text();
  expect(html).toContain('<meta name="robots" content="noindex" />');
  expect(html).toMatch(SHELL_SCRIPT);
});

test('sitemap.xml comes from the published marketing version', async () => {
  const response = await fetch(`${shellUrl}/sitemap.xml`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/xml');
  expect(await response.text()).toBe('<urlset>fashion</urlset>');
  expect((await fetch(`${shellUrl}/robots.txt`)).status).toBe(404);
});

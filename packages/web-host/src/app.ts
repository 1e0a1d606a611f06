import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import compression from 'compression';
import type { Express } from 'express';
import { createHttpApp, type Logger } from '@productgen/service-kit';
import { trackingScriptsOf, type MicrofrontendHostConfig, type ShellHostConfig } from './config';
import { setCacheHeaders } from './headers';
import { readFileOrNull, servePageDocuments } from './page-documents';
import { serveStaticFiles } from './static-files';

/** The path a microfrontend version is served at, on its own host and through the shell host alike. */
export function versionedPath(name: string, version: string): string {
  return `/mfe/${name}/${version}/`;
}

const FORWARDED_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'last-modified',
  'cross-origin-resource-policy',
  'cross-origin-embedder-policy',
];

/** One microfrontend version: its build under /mfe/<name>/<version>/, and nothing else. */
export function createMicrofrontendHost(config: MicrofrontendHostConfig, logger: Logger): Express {
  const indexFile = path.join(config.STATIC_DIR, 'mf-manifest.json');
  const app = createHttpApp({
    name: `mfe-${config.MFE_NAME}`,
    logger,
    readiness: { build: () => access(indexFile) },
  });
  // Brotli or gzip for every text answer (scripts, manifests, JSON); images are left as they are.
  app.use(compression());
  app.use(
    versionedPath(config.MFE_NAME, config.MFE_VERSION),
    serveStaticFiles(config.STATIC_DIR, {
      setHeaders: (res, filePath) => {
        setCacheHeaders(res, filePath);
        // The shell's tool pages are cross-origin isolated (require-corp): they may load these files, and a worker
        // they start must itself carry COEP or Chromium blocks it (no effect on scripts that are not workers).
        res.setHeader('Cross-Origin-Resource-Policy', 'same-site');
        if (/\.m?js$/.test(filePath)) res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
      },
    }),
  );
  return app.finalize();
}

export function createShellHost(config: ShellHostConfig, logger: Logger): Express {
  const shellIndex = path.join(config.STATIC_DIR, 'index.html');
  const app = createHttpApp({
    name: 'shell',
    logger,
    readiness: { build: () => access(shellIndex), registry: () => access(config.REGISTRY_FILE) },
  });
  // Brotli or gzip for every text answer (pages, scripts, JSON), as embedded mode's web origin does.
  app.use(compression());
  const runtimeConfig = {
    apiBaseUrl: config.API_PUBLIC_URL,
    googleClientId: config.GOOGLE_CLIENT_ID,
    productName: config.PRODUCT_NAME,
    devIdentityProvider: config.DEV_IDENTITY_PROVIDER && config.NODE_ENV !== 'production',
    trackingScripts: trackingScriptsOf(config),
  };

  app.get('/runtime-config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(runtimeConfig);
  });
  // Read on every request: the registry is the release switch (a mounted ConfigMap or file).
  const readRegistry = async () => JSON.parse(await readFile(config.REGISTRY_FILE, 'utf8')) as Record<string, string>;
  app.get('/remotes.json', async (_req, res) => {
    const registry = await readRegistry();
    res.setHeader('Cache-Control', 'no-cache');
    res.json(registry);
  });

  const upstreamOf = (name: string, version: string): string | undefined =>
    config.MFE_UPSTREAMS?.[name] ??
    config.MFE_UPSTREAM?.replaceAll('{name}', name).replaceAll('{version}', version.replaceAll('.', '-'));
  if (config.MFE_UPSTREAMS || config.MFE_UPSTREAM) {
    app.get('/mfe/:name/:version/{*file}', async (req, res) => {
      const { name, version } = req.params;
      const base = upstreamOf(name, version);
      if (!base) {
        res.status(404).type('text').send('Not Found');
        return;
      }
      const target = new URL(req.originalUrl, base);
      try {
        const upstream = await fetch(target, { signal: AbortSignal.timeout(config.UPSTREAM_TIMEOUT_MS) });
        res.status(upstream.status);
        for (const header of FORWARDED_HEADERS) {
          const value = upstream.headers.get(header);
          if (value) res.setHeader(header, value);
        }
        if (!upstream.body) {
          res.end();
          return;
        }
        Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream).pipe(res);
      } catch (error) {
        logger.warn({ err: error, upstream: target.origin }, 'microfrontend host did not answer');
        res.status(502).type('text').send(`Microfrontend ${name} ${version} is not reachable.`);
      }
    });
  }

  app.use(serveStaticFiles(config.STATIC_DIR, { setHeaders: setCacheHeaders }));
  // The same page documents as embedded mode's web server: the prerendered parts come from the published
  // microfrontend version, through its host.
  servePageDocuments(
    app,
    {
      readShellIndex: () => readFileOrNull(shellIndex),
      readRegistry,
      async readPublishedFile(urlPath) {
        const [, , name, version] = urlPath.split('/');
        const base = name && version ? upstreamOf(name, version) : undefined;
        if (!base) return readFileOrNull(path.join(config.STATIC_DIR, path.posix.normalize(urlPath)));
        const upstream = await fetch(new URL(urlPath, base), {
          signal: AbortSignal.timeout(config.UPSTREAM_TIMEOUT_MS),
        });
        if (upstream.status === 404) return null;
        if (!upstream.ok) throw new Error(`microfrontend host answered ${upstream.status} for ${urlPath}`);
        return upstream.text();
      },
    },
    config.PRODUCT_NAME,
    { isolatedPaths: config.CROSS_ORIGIN_ISOLATED_PATHS, notBuiltMessage: 'The web app is not built yet.' },
  );
  return app.finalize();
}

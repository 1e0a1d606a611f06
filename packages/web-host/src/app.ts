import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import compression from 'compression';
import type { Express } from 'express';
import { MFE_NAMES } from '@productgen/mf-shared/routes';
import { createHttpApp, devFeaturesEnabled, type Logger } from '@productgen/service-kit';
import { trackingScriptsOf, type MicrofrontendHostConfig, type ShellHostConfig } from './config';
import { setCacheHeaders } from './headers';
import { publishedFolder, readFileOrNull, servePageDocuments } from './page-documents';
import { webOriginHeaders } from './security-headers';
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

/** A microfrontend's short name and a version as releases make them (scripts/mfe-release.mjs). */
const SHORT_NAME = /^[a-z][a-z0-9-]*$/;
const VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** Whether `name` is a known microfrontend and `version` the one the registry currently publishes for it. */
export function isPublishedVersion(registry: Record<string, string>, name: string, version: string): boolean {
  if (!SHORT_NAME.test(name) || !VERSION.test(version)) return false;
  const remote = `mfe_${name}`;
  const entry = Object.hasOwn(registry, remote) ? registry[remote] : undefined;
  return (
    (MFE_NAMES as readonly string[]).includes(remote) &&
    typeof entry === 'string' &&
    publishedFolder(entry) === versionedPath(name, version)
  );
}

/** One microfrontend version: its build under /mfe/<name>/<version>/, and nothing else. */
export function createMicrofrontendHost(config: MicrofrontendHostConfig, logger: Logger): Express {
  const indexFile = path.join(config.STATIC_DIR, 'mf-manifest.json');
  const app = createHttpApp({
    name: `mfe-${config.MFE_NAME}`,
    logger,
    readiness: { build: () => access(indexFile) },
  });
  // Its files reach browsers through the shell host, which sets its own headers; these hold if one is reached
  // directly, and a worker script's CSP is the one of its own answer.
  app.use(webOriginHeaders());
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
  const runtimeConfig = {
    apiBaseUrl: config.API_PUBLIC_URL,
    googleClientId: config.GOOGLE_CLIENT_ID,
    productName: config.PRODUCT_NAME,
    devIdentityProvider: devFeaturesEnabled(config),
    trackingScripts: trackingScriptsOf(config),
  };
  app.use(webOriginHeaders(runtimeConfig));
  // Brotli or gzip for every text answer (pages, scripts, JSON), as embedded mode's web origin does.
  app.use(compression());

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

  // A name and version from the request go into an upstream URL only once they are exactly what the registry
  // publishes: Express has decoded the path segments, so %23, %3A, %2F or %40 arrive as #, :, / or @ and would
  // otherwise choose the host the shell host fetches from (and serves as HTML on the web origin).
  const upstreamOf = async (name: string, version: string): Promise<string | undefined> => {
    if (!isPublishedVersion(await readRegistry(), name, version)) return undefined;
    return (
      config.MFE_UPSTREAMS?.[name] ??
      config.MFE_UPSTREAM?.replaceAll('{name}', name).replaceAll('{version}', version.replaceAll('.', '-'))
    );
  };
  if (config.MFE_UPSTREAMS || config.MFE_UPSTREAM) {
    app.get('/mfe/:name/:version/{*file}', async (req, res) => {
      const { name, version } = req.params;
      const base = await upstreamOf(name, version);
      const target = base ? new URL(req.originalUrl, base) : undefined;
      // Dot segments in the rest of the path must not leave the version's folder either.
      if (!target?.pathname.startsWith(versionedPath(name, version))) {
        res.status(404).type('text').send('Not Found');
        return;
      }
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
        const base = name && version ? await upstreamOf(name, version) : undefined;
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

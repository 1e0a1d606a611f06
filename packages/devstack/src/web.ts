import { cp, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express, { type Express } from 'express';
import {
  readFileOrNull,
  servePageDocuments,
  serveStaticFiles,
  setCacheHeaders,
  TOOL_PATHS,
  webOriginHeaders,
} from '@productgen/web-host';

/**
 * The static web origin of embedded mode: the shell at `/`, every microfrontend under a versioned path, and the
 * two documents the shell reads at start. Deploying a microfrontend is "publish its dist under a new version
 * path + change one registry entry" (DESIGN.md §3): the running shell is never rebuilt or restarted.
 */

/** A built microfrontend workspace: `mfe-dashboard` → remote `mfe_dashboard` served at /mfe/dashboard/<version>/. */
export interface MicrofrontendBuild {
  remoteName: string;
  shortName: string;
  version: string;
  distDir: string;
}

/**
 * /runtime-config.json. Embedded mode names no API host, only its port: the web app takes the page's own host (see
 * platform-client resolveApiBaseUrl), so the platform works at localhost, 127.0.0.1 or a LAN name alike.
 */
export interface RuntimeConfig {
  apiBaseUrl?: string;
  apiPort?: number;
  googleClientId: string;
  productName: string;
  devIdentityProvider: boolean;
  /** The layout's analytics and pixel scripts (kind → URL), only the configured ones. */
  trackingScripts: Record<string, string>;
}

export function versionedPath(shortName: string, version: string): string {
  return `/mfe/${shortName}/${version}/`;
}

/** Finds the built microfrontends of the repository (`mfe-*` workspaces with a dist/mf-manifest.json). */
export async function findMicrofrontendBuilds(repoRoot: string): Promise<MicrofrontendBuild[]> {
  const builds: MicrofrontendBuild[] = [];
  for (const entry of await readdir(repoRoot)) {
    if (!entry.startsWith('mfe-')) continue;
    const distDir = path.join(repoRoot, entry, 'dist');
    if (!existsSync(path.join(distDir, 'mf-manifest.json'))) continue;
    const { version } = JSON.parse(await readFile(path.join(repoRoot, entry, 'package.json'), 'utf8')) as {
      version: string;
    };
    const shortName = entry.slice('mfe-'.length);
    builds.push({ remoteName: `mfe_${shortName}`, shortName, version, distDir });
  }
  return builds;
}

/** Copies a build under its version path in the web root and points the registry entry at it. */
export async function publishMicrofrontend(webRoot: string, build: MicrofrontendBuild): Promise<void> {
  const target = path.join(webRoot, 'mfe', build.shortName, build.version);
  await rm(target, { recursive: true, force: true });
  await mkdir(path.dirname(target), { recursive: true });
  await cp(build.distDir, target, { recursive: true });
  await updateRegistryEntry(
    webRoot,
    build.remoteName,
    `${versionedPath(build.shortName, build.version)}mf-manifest.json`,
  );
}

export async function readRegistry(webRoot: string): Promise<Record<string, string>> {
  try {
    return JSON.parse(await readFile(path.join(webRoot, 'remotes.json'), 'utf8')) as Record<string, string>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

export async function updateRegistryEntry(webRoot: string, remoteName: string, manifestUrl: string): Promise<void> {
  const registry = await readRegistry(webRoot);
  registry[remoteName] = manifestUrl;
  await mkdir(webRoot, { recursive: true });
  // Write-then-rename so a shell fetching the registry never reads half a file.
  const temporary = path.join(webRoot, `remotes.json.${process.pid}.tmp`);
  await writeFile(temporary, `${JSON.stringify(registry, null, 2)}\n`);
  await rename(temporary, path.join(webRoot, 'remotes.json'));
}

export interface WebAppOptions {
  /** The shell's build (index.html + hashed chunks). */
  shellDistDir: string;
  /** Holds remotes.json and mfe/<name>/<version>/. */
  webRoot: string;
  runtimeConfig: RuntimeConfig;
}

export function createWebApp(options: WebAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // The same security headers (CSP with a per-answer nonce, framing, referrer, permissions) as distributed mode.
  app.use(webOriginHeaders(options.runtimeConfig));
  // Brotli or gzip for every text answer (HTML, JavaScript, JSON); images are left as they are.
  app.use(compression());

  app.get('/runtime-config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(options.runtimeConfig);
  });
  app.get('/remotes.json', async (_req, res, next) => {
    try {
      res.setHeader('Cache-Control', 'no-cache');
      res.json(await readRegistry(options.webRoot));
    } catch (error) {
      next(error);
    }
  });
  app.use(
    '/mfe',
    serveStaticFiles(path.join(options.webRoot, 'mfe'), {
      setHeaders: (res, filePath) => {
        setCacheHeaders(res, filePath);
        // A worker started by a cross-origin isolated tool page must itself be served with COEP, or Chromium
        // blocks it (ERR_BLOCKED_BY_RESPONSE); on scripts that are not workers the header has no effect.
        if (/\.m?js$/.test(filePath)) res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
      },
    }),
  );
  app.use(serveStaticFiles(options.shellDistDir, { setHeaders: setCacheHeaders }));
  // sitemap.xml, robots.txt and every page path: the same page documents as distributed mode's shell host, read
  // from the published microfrontend folders here.
  servePageDocuments(
    app,
    {
      readShellIndex: () => readFileOrNull(path.join(options.shellDistDir, 'index.html')),
      readRegistry: () => readRegistry(options.webRoot),
      async readPublishedFile(urlPath) {
        const published = path.posix.normalize(urlPath);
        return published.startsWith('/mfe/') ? readFileOrNull(path.join(options.webRoot, published)) : null;
      },
    },
    options.runtimeConfig.productName,
    {
      // The free tools run threaded WASM inference, which needs a cross-origin isolated document.
      isolatedPaths: TOOL_PATHS,
      notBuiltMessage: 'The web app is not built yet: run `npm run build` and start again.',
    },
  );
  app.use((_req, res) => {
    res.status(404).type('text').send('Not Found');
  });
  return app;
}

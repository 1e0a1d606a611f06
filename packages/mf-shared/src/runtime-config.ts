import { resolveApiBaseUrl, type PageLocation } from '@productgen/platform-client';
import { CONTENT_ROUTED_REMOTES, parseRoutesManifest, type RouteEntry } from './routes';

// What the server tells the shell at start (written by the launcher/gateway, never baked into the build):
// /runtime-config.json for settings and /remotes.json, the registry of deployed microfrontend versions.

export interface RuntimeConfig {
  /**
   * Absolute API origin, e.g. http://localhost:8080: the file's `apiBaseUrl` when the operator set one, else the
   * page's own host with the file's `apiPort` (platform-client resolveApiBaseUrl), so any host the user typed works.
   */
  apiBaseUrl: string;
  /** Google Identity Services client id; may be empty when the dev identity provider is used. */
  googleClientId: string;
  productName: string;
  /** Embedded mode: sign in through the built-in dev identity provider instead of Google. */
  devIdentityProvider: boolean;
  /** The third-party scripts the layout loads (SPEC §2); a kind the operator did not configure is not loaded. */
  trackingScripts: TrackingScripts;
}

/** The kinds of third-party script the layout may load, each from the URL the operator configured. */
export const TRACKING_SCRIPT_KINDS = ['analytics', 'advertisingPixel', 'socialPixel', 'productAnalytics'] as const;
export type TrackingScriptKind = (typeof TRACKING_SCRIPT_KINDS)[number];
export type TrackingScripts = Partial<Record<TrackingScriptKind, string>>;

function parseTrackingScripts(value: unknown): TrackingScripts {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new StartupConfigError('runtime-config.json: trackingScripts must be an object');
  const scripts: TrackingScripts = {};
  for (const [kind, url] of Object.entries(value)) {
    if (!(TRACKING_SCRIPT_KINDS as readonly string[]).includes(kind)) {
      throw new StartupConfigError(
        `runtime-config.json: trackingScripts.${kind} is not one of ${TRACKING_SCRIPT_KINDS.join(', ')}`,
      );
    }
    if (typeof url !== 'string' || !/^(https?:\/\/|\/[^/])/.test(url)) {
      throw new StartupConfigError(`runtime-config.json: trackingScripts.${kind} must be an http(s) URL or a /path`);
    }
    scripts[kind as TrackingScriptKind] = url;
  }
  return scripts;
}

/** Remote name -> URL of its mf-manifest.json under a versioned path. */
export type RemoteRegistry = Record<string, string>;

export class StartupConfigError extends Error {
  override name = 'StartupConfigError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function fetchJson(url: string, fetchImpl: typeof fetch): Promise<unknown> {
  let response: Response;
  try {
    response = await fetchImpl(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch (error) {
    throw new StartupConfigError(`Could not load ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw new StartupConfigError(`Could not load ${url}: HTTP ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new StartupConfigError(`${url} is not valid JSON`);
  }
}

export function parseRuntimeConfig(
  value: unknown,
  page: PageLocation = typeof window === 'undefined' ? { protocol: 'http:', hostname: 'localhost' } : window.location,
): RuntimeConfig {
  if (!isRecord(value)) throw new StartupConfigError('runtime-config.json must hold a JSON object');
  const {
    apiBaseUrl,
    apiPort,
    googleClientId = '',
    productName = 'ProductGen',
    devIdentityProvider = false,
    trackingScripts,
  } = value;
  if (apiBaseUrl !== undefined && (typeof apiBaseUrl !== 'string' || !/^https?:\/\//.test(apiBaseUrl))) {
    throw new StartupConfigError('runtime-config.json: apiBaseUrl must be an absolute http(s) URL');
  }
  if (
    apiBaseUrl === undefined &&
    (typeof apiPort !== 'number' || !Number.isInteger(apiPort) || apiPort < 1 || apiPort > 65_535)
  ) {
    throw new StartupConfigError('runtime-config.json: apiBaseUrl or apiPort (1-65535) is required');
  }
  if (typeof googleClientId !== 'string')
    throw new StartupConfigError('runtime-config.json: googleClientId must be a string');
  if (typeof productName !== 'string' || !productName.trim()) {
    throw new StartupConfigError('runtime-config.json: productName must be a non-empty string');
  }
  if (typeof devIdentityProvider !== 'boolean') {
    throw new StartupConfigError('runtime-config.json: devIdentityProvider must be true or false');
  }
  if (!devIdentityProvider && !googleClientId) {
    throw new StartupConfigError('runtime-config.json: googleClientId is required unless devIdentityProvider is true');
  }
  return {
    apiBaseUrl: resolveApiBaseUrl({ apiBaseUrl, apiPort: apiPort as number | undefined }, page),
    googleClientId,
    productName: productName.trim(),
    devIdentityProvider,
    trackingScripts: parseTrackingScripts(trackingScripts),
  };
}

export function parseRemoteRegistry(value: unknown): RemoteRegistry {
  if (!isRecord(value)) throw new StartupConfigError('remotes.json must map remote names to mf-manifest.json URLs');
  const registry: RemoteRegistry = {};
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry !== 'string' || !entry) {
      throw new StartupConfigError(`remotes.json: the entry of "${name}" must be a mf-manifest.json URL`);
    }
    registry[name] = entry;
  }
  return registry;
}

const browserFetch: typeof fetch = (input, init) => fetch(input, init);

export async function loadRuntimeConfig(fetchImpl: typeof fetch = browserFetch): Promise<RuntimeConfig> {
  return parseRuntimeConfig(await fetchJson('/runtime-config.json', fetchImpl));
}

export async function loadRemoteRegistry(fetchImpl: typeof fetch = browserFetch): Promise<RemoteRegistry> {
  return parseRemoteRegistry(await fetchJson('/remotes.json', fetchImpl));
}

/** Where an app's routes manifest lives: beside the mf-manifest.json the registry names. */
export function routesManifestUrl(manifestUrl: string, base: string): string {
  return new URL('routes.json', new URL(manifestUrl, base)).href;
}

/**
 * The routes of the content-routed apps, read from their published routes manifests. An app whose manifest
 * cannot be read contributes no routes (its paths show the not-found page) rather than stopping the whole site.
 */
export async function loadPublishedRoutes(
  registry: RemoteRegistry,
  fetchImpl: typeof fetch = browserFetch,
  base: string = window.location.href,
): Promise<RouteEntry[]> {
  const lists = await Promise.all(
    CONTENT_ROUTED_REMOTES.filter((name) => registry[name]).map(async (name) => {
      try {
        return parseRoutesManifest(name, await fetchJson(routesManifestUrl(registry[name]!, base), fetchImpl));
      } catch (error) {
        console.warn(`The routes of ${name} could not be read`, error);
        return [];
      }
    }),
  );
  return lists.flat();
}

/** The shell's start: both files, fetched in parallel. */
export async function loadStartupConfig(
  fetchImpl: typeof fetch = browserFetch,
): Promise<{ config: RuntimeConfig; registry: RemoteRegistry }> {
  const [config, registry] = await Promise.all([loadRuntimeConfig(fetchImpl), loadRemoteRegistry(fetchImpl)]);
  return { config, registry };
}

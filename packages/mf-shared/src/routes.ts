// The route table of SPEC §2 with each route's owning microfrontend (DESIGN §1) and page meta. The shell
// uses it to decide which app is active; each app uses it for its pages' titles and descriptions, so the
// two never disagree about who owns a path.
//
// The marketing and legal pages are not listed here: they are content files of mfe-marketing, whose build
// publishes their routes (routes.json beside its mf-manifest.json). The shell and the web origin read that
// manifest at run time, so adding a page is adding a content file, with no change here or in the shell.

export type MfeName = 'mfe_marketing' | 'mfe_create' | 'mfe_dashboard' | 'mfe_tools';

export const MFE_NAMES: readonly MfeName[] = ['mfe_marketing', 'mfe_create', 'mfe_dashboard', 'mfe_tools'];

/** Apps whose routes come from their build's routes manifest (routes.json next to mf-manifest.json). */
export const CONTENT_ROUTED_REMOTES: readonly MfeName[] = ['mfe_marketing'];

export interface RouteEntry {
  /** A react-router path: "/pricing", "/job/:bulkJobUuid". */
  path: string;
  owner: MfeName;
  /** The page's own title (the product name is appended by setPageMeta). */
  title: string;
  /** What the page is for: the meta description and, until the page is built out, its lead sentence. */
  description: string;
  /** A public page search engines should list (sitemap.xml); pages behind sign-in are not. */
  indexable?: boolean;
}

/** The routes owned by apps whose pages are code (every app but the content-routed ones). */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  {
    path: '/productgen',
    owner: 'mfe_create',
    title: 'Create Product Photos',
    description: 'Upload a product photo, or a batch of them, and create professional styled images.',
  },
  {
    path: '/job/:bulkJobUuid',
    owner: 'mfe_create',
    title: 'Batch Job',
    description: 'Follow the progress of a batch job and download its created images.',
  },
  {
    path: '/dashboard',
    owner: 'mfe_dashboard',
    title: 'Dashboard',
    description: 'Your creations, batch jobs in progress and credit history in one place.',
  },
  {
    path: '/settings',
    owner: 'mfe_dashboard',
    title: 'Settings',
    description: 'Your account details, website URL and shop context.',
  },
  {
    path: '/pricing',
    indexable: true,
    owner: 'mfe_dashboard',
    title: 'Pricing',
    description: 'Pay-as-you-go credit packages and a free tier of 10 images to start.',
  },
  {
    path: '/image-resizer',
    indexable: true,
    owner: 'mfe_tools',
    title: 'Free Image Resizer',
    description: 'Resize several images at once in your browser: set the maximum dimension, name the files, download.',
  },
  {
    path: '/remove-background-shopify',
    indexable: true,
    owner: 'mfe_tools',
    title: 'Free AI Background Remover',
    description: 'Remove the background of product images in your browser, with a transparent or custom colour result.',
  },
  {
    path: '/image-upscaler',
    indexable: true,
    owner: 'mfe_tools',
    title: 'Free AI Image Upscaler',
    description: 'Upscale images with AI, running locally in your browser, and download them as PNG.',
  },
  {
    path: '/remove-object-from-photo',
    indexable: true,
    owner: 'mfe_tools',
    title: 'Remove Object from Photo',
    description: 'Paint over unwanted objects and let AI erase them from your photo, right in your browser.',
  },
];

/** "/pricing/" and "/pricing" are the same page; the root stays "/". */
export function normalisePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed || '/';
}

function matches(pattern: string, pathname: string): boolean {
  const patternParts = pattern.split('/');
  const pathParts = pathname.split('/');
  if (patternParts.length !== pathParts.length) return false;
  return patternParts.every((part, index) => {
    const actual = pathParts[index] ?? '';
    return part.startsWith(':') ? actual.length > 0 : part === actual;
  });
}

/**
 * The route entry of a location path, or null when no page exists there (the shell's not-found page).
 * `table` is the whole table (the static routes plus the published manifests); default: the static routes.
 */
export function findRoute(pathname: string, table: readonly RouteEntry[] = ROUTE_TABLE): RouteEntry | null {
  const path = normalisePath(pathname);
  return table.find((entry) => matches(entry.path, path)) ?? null;
}

export function routeOwner(pathname: string, table: readonly RouteEntry[] = ROUTE_TABLE): MfeName | null {
  return findRoute(pathname, table)?.owner ?? null;
}

/** The entries of an app's routes manifest (routes.json: `{ routes: [{ path, title, description }] }`). */
export function parseRoutesManifest(owner: MfeName, value: unknown): RouteEntry[] {
  const routes = (value as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes)) throw new Error(`The routes manifest of ${owner} has no "routes" list`);
  return routes.map((route: unknown, index) => {
    const { path, title, description } = (route ?? {}) as Record<string, unknown>;
    if (typeof path !== 'string' || !path.startsWith('/') || typeof title !== 'string') {
      throw new Error(`The routes manifest of ${owner}: entry ${index} needs a path and a title`);
    }
    return { path, owner, title, description: typeof description === 'string' ? description : '' };
  });
}

export function routesOf(owner: MfeName): RouteEntry[] {
  return ROUTE_TABLE.filter((entry) => entry.owner === owner);
}

/** The entry for an exact table path (e.g. "/settings"); throws on a typo so a page never ships untitled. */
export function routeEntry(path: string): RouteEntry {
  const entry = ROUTE_TABLE.find((candidate) => candidate.path === path);
  if (!entry) throw new Error(`No route "${path}" in the route table`);
  return entry;
}

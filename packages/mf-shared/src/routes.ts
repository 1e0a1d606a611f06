// The route table of SPEC §2 with each route's owning microfrontend (DESIGN §1) and page meta. The shell
// uses it to decide which app is active; each app uses it for its pages' titles and descriptions, so the
// two never disagree about who owns a path.

export type MfeName = 'mfe_marketing' | 'mfe_create' | 'mfe_dashboard' | 'mfe_tools';

export const MFE_NAMES: readonly MfeName[] = ['mfe_marketing', 'mfe_create', 'mfe_dashboard', 'mfe_tools'];

export interface RouteEntry {
  /** A react-router path: "/pricing", "/job/:bulkJobUuid". */
  path: string;
  owner: MfeName;
  /** The page's own title (the product name is appended by setPageMeta). */
  title: string;
  /** What the page is for: the meta description and, until the page is built out, its lead sentence. */
  description: string;
}

function marketing(path: string, title: string, description: string): RouteEntry {
  return { path, owner: 'mfe_marketing', title, description };
}

const AMAZON_TITLE = 'Professional Amazon Product Photography';
const AMAZON_DESCRIPTION =
  'Turn phone photos into Amazon-ready product images with pure white backgrounds that meet marketplace rules.';

export const ROUTE_TABLE: readonly RouteEntry[] = [
  marketing(
    '/',
    'AI Product Photos from Your Phone',
    'Turn ordinary phone photos of your products into professional product photos in seconds. No studio needed.',
  ),
  marketing('/login', 'Sign In', 'Sign in to create professional product photos from your phone photos.'),
  marketing('/terms', 'Terms of Service', 'The terms that apply when you use the service and buy credits.'),
  marketing('/privacy', 'Privacy Policy', 'How we collect, use and protect your personal data.'),
  marketing(
    '/cookies-policy',
    'Cookies Policy',
    'Which necessary, analytics and marketing cookies the site uses and why.',
  ),
  marketing(
    '/for-ad-agencies',
    'Product Photos for Ad Agencies',
    'Create on-brand product visuals for every client campaign at scale, without booking a studio.',
  ),
  marketing('/professional-amazon-product-photography', AMAZON_TITLE, AMAZON_DESCRIPTION),
  marketing('/amazon-product-photography', AMAZON_TITLE, AMAZON_DESCRIPTION),
  marketing(
    '/professional-shopify-product-photography',
    'Professional Shopify Product Photography',
    'Give your Shopify store consistent, professional product photos made from the pictures you already have.',
  ),
  marketing(
    '/professional-etsy-product-photography',
    'Professional Etsy Product Photography',
    'Make your handmade products stand out on Etsy with styled, professional-looking listing photos.',
  ),
  marketing(
    '/etsy-product-photo-ai',
    'AI Product Photos for Etsy',
    'Use AI to turn quick phone shots of your Etsy products into polished listing images.',
  ),
  marketing(
    '/shopify-photo-editor',
    'Shopify Photo Editor',
    'Edit and restyle your Shopify product photos with AI, straight from your store.',
  ),
  marketing(
    '/ai-product-photo-generator',
    'AI Product Photo Generator',
    'Generate several styled product photos from one picture of your product.',
  ),
  marketing(
    '/ebay-sellers-product-photos',
    'Product Photos for eBay Sellers',
    'Clean, professional photos that help your eBay listings sell faster.',
  ),
  marketing(
    '/facebook-marketplace-selling-photo-editing',
    'Photo Editing for Facebook Marketplace',
    'Make your Facebook Marketplace listings look professional with AI-edited product photos.',
  ),
  marketing(
    '/product-photo-editing-services',
    'Product Photo Editing Services',
    'An AI alternative to product photo editing services: studio-quality results at a fraction of the cost.',
  ),
  marketing(
    '/product-photo-retouching',
    'Product Photo Retouching',
    'Retouch product photos with AI: clean backgrounds, better light and a professional finish.',
  ),
  marketing(
    '/photo-editing-services-for-ecommerce',
    'Photo Editing Services for E-commerce',
    'Consistent, marketplace-ready photos for your whole e-commerce catalogue.',
  ),
  marketing(
    '/cost-of-professional-product-photography',
    'Cost of Professional Product Photography',
    'What professional product photography costs, and how AI product photos compare.',
  ),
  marketing(
    '/fashion-product-photos',
    'Fashion Product Photos',
    'Professional photos for apparel, shoes and accessories, including apparel on an AI-generated model.',
  ),
  marketing(
    '/jewelry-product-photos',
    'Jewelry Product Photos',
    'Show rings, necklaces and watches in sharp, elegant product photos.',
  ),
  marketing(
    '/beauty-product-photos',
    'Beauty Product Photos',
    'Styled photos for cosmetics, skincare and fragrance products.',
  ),
  marketing(
    '/home-decor-product-photos',
    'Home Decor Product Photos',
    'Beautiful scenes for furniture, lamps, vases and other home decor products.',
  ),
  marketing(
    '/electronics-product-photos',
    'Electronics Product Photos',
    'Crisp, professional photos for gadgets, audio gear and other electronics.',
  ),
  marketing(
    '/restaurant-menu-photos',
    'Restaurant Menu Photos',
    'Appetising photos of your dishes for menus and delivery apps.',
  ),
  marketing(
    '/fitness-product-photos',
    'Fitness Product Photos',
    'Energetic product photos for fitness equipment, apparel and supplements.',
  ),
  marketing(
    '/pet-product-photos',
    'Pet Product Photos',
    'Charming, professional photos for pet products and accessories.',
  ),
  marketing('/baby-product-photos', 'Baby Product Photos', 'Soft, trustworthy photos for baby clothes, toys and gear.'),
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
    owner: 'mfe_dashboard',
    title: 'Pricing',
    description: 'Pay-as-you-go credit packages and a free tier of 10 images to start.',
  },
  {
    path: '/image-resizer',
    owner: 'mfe_tools',
    title: 'Free Image Resizer',
    description: 'Resize several images at once in your browser: set the maximum dimension, name the files, download.',
  },
  {
    path: '/remove-background-shopify',
    owner: 'mfe_tools',
    title: 'Free AI Background Remover',
    description: 'Remove the background of product images in your browser, with a transparent or custom colour result.',
  },
  {
    path: '/image-upscaler',
    owner: 'mfe_tools',
    title: 'Free AI Image Upscaler',
    description: 'Upscale images with AI, running locally in your browser, and download them as PNG.',
  },
  {
    path: '/remove-object-from-photo',
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

/** The route entry of a location path, or null when no page exists there (the shell's not-found page). */
export function findRoute(pathname: string): RouteEntry | null {
  const path = normalisePath(pathname);
  return ROUTE_TABLE.find((entry) => matches(entry.path, path)) ?? null;
}

export function routeOwner(pathname: string): MfeName | null {
  return findRoute(pathname)?.owner ?? null;
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

// The chrome's link lists (SPEC §2 "Top bar and footer"), kept as data so the top bar, its menus and the
// footer cannot drift apart.

export interface NavLink {
  label: string;
  href: string;
}

export const FREE_TOOLS: readonly NavLink[] = [
  { label: 'Image Resizer', href: '/image-resizer' },
  { label: 'AI Background Remover', href: '/remove-background-shopify' },
  { label: 'AI Image Upscaler', href: '/image-upscaler' },
  { label: 'Remove Object from Photo', href: '/remove-object-from-photo' },
];

export const SIGNED_OUT_LINKS: readonly NavLink[] = [
  { label: 'Pricing', href: '/pricing' },
  { label: 'Demo', href: '/#demo' },
  { label: 'Ad Agencies', href: '/for-ad-agencies' },
];

export const PROFILE_LINKS: readonly NavLink[] = [
  { label: 'Dashboard', href: '/dashboard' },
  { label: 'Settings', href: '/settings' },
  { label: 'Buy Credits', href: '/pricing' },
];

export const LEGAL_LINKS: readonly NavLink[] = [
  { label: 'Terms of Service', href: '/terms' },
  { label: 'Privacy Policy', href: '/privacy' },
  { label: 'Cookies Policy', href: '/cookies-policy' },
];

export const COMPANY_LINKS: readonly NavLink[] = [
  { label: 'Pricing', href: '/pricing' },
  { label: 'For Ad Agencies', href: '/for-ad-agencies' },
  { label: 'AI Product Photo Generator', href: '/ai-product-photo-generator' },
];

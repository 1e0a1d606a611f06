import { fullTitle, getSiteName, setPageMeta, setSiteName } from '@productgen/mf-shared';

function meta(selector: string): string | null | undefined {
  return document.head.querySelector(selector)?.getAttribute('content');
}

describe('setPageMeta', () => {
  it('sets title, description, canonical, Open Graph, Twitter and JSON-LD data with the product name', () => {
    setSiteName('Acme Photos');
    setPageMeta({ title: 'Pricing', description: 'Credit packages.', path: '/pricing?ref=abc#top', image: '/og.png' });

    expect(document.title).toBe('Pricing | Acme Photos');
    expect(meta('meta[name="description"]')).toBe('Credit packages.');
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe('http://localhost/pricing');
    expect(meta('meta[property="og:title"]')).toBe('Pricing | Acme Photos');
    expect(meta('meta[property="og:url"]')).toBe('http://localhost/pricing');
    expect(meta('meta[property="og:image"]')).toBe('http://localhost/og.png');
    expect(meta('meta[property="og:site_name"]')).toBe('Acme Photos');
    expect(meta('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(meta('meta[name="twitter:description"]')).toBe('Credit packages.');
    const jsonLd = JSON.parse(document.getElementById('pg-page-jsonld')?.textContent ?? '{}');
    expect(jsonLd).toMatchObject({
      '@type': 'WebPage',
      url: 'http://localhost/pricing',
      publisher: { name: 'Acme Photos' },
    });
  });

  it('updates the same tags on the next page instead of adding more', () => {
    setPageMeta({ title: 'Settings', description: 'Your account.', path: '/settings' });
    expect(document.head.querySelectorAll('meta[property="og:title"]')).toHaveLength(1);
    expect(document.head.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);
    expect(meta('meta[property="og:image"]')).toBeUndefined();
    expect(meta('meta[name="twitter:card"]')).toBe('summary');
  });

  it('does not repeat the product name and falls back to ProductGen', () => {
    expect(fullTitle('ProductGen: AI product photos', 'ProductGen')).toBe('ProductGen: AI product photos');
    document.head.querySelector('meta[property="og:site_name"]')?.remove();
    expect(getSiteName()).toBe('ProductGen');
  });
});

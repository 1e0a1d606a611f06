import { describePageHead, fullTitle, getSiteName, setPageMeta, setSiteName } from '@productgen/mf-shared';

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

describe('describePageHead', () => {
  it('makes the canonical absolute on the configured site URL and adds FAQPage data for an FAQ', () => {
    const head = describePageHead(
      {
        title: 'Amazon Photos',
        description: 'Listing photos.',
        path: '/amazon-photos',
        siteUrl: 'https://shop.example/',
        faq: [{ question: 'Is white allowed?', answer: 'Yes.' }],
      },
      'Acme Photos',
      'http://127.0.0.1:3000',
    );
    expect(head.canonical).toBe('https://shop.example/amazon-photos');
    expect(head.metas).toContainEqual(['property', 'og:url', 'https://shop.example/amazon-photos']);
    expect(head.jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@graph': [
        expect.objectContaining({ '@type': 'WebPage', publisher: expect.objectContaining({ name: 'Acme Photos' }) }),
        expect.objectContaining({
          '@type': 'FAQPage',
          mainEntity: [expect.objectContaining({ name: 'Is white allowed?', acceptedAnswer: expect.anything() })],
        }),
      ],
    });
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import matter from 'gray-matter';
import { ROUTE_TABLE } from '@productgen/mf-shared';
import { appPages, compileContent, compilePage, ContentError, siteRoutes } from '../src/content/compile';

const contentDir = path.join(__dirname, '..', 'content');

/** SPEC §2's marketing and legal routes (every route the route table gives mfe-marketing). */
const SPEC_ROUTES = [
  '/',
  '/login',
  '/terms',
  '/privacy',
  '/cookies-policy',
  '/for-ad-agencies',
  '/professional-amazon-product-photography',
  '/amazon-product-photography',
  '/professional-shopify-product-photography',
  '/professional-etsy-product-photography',
  '/etsy-product-photo-ai',
  '/shopify-photo-editor',
  '/ai-product-photo-generator',
  '/ebay-sellers-product-photos',
  '/facebook-marketplace-selling-photo-editing',
  '/product-photo-editing-services',
  '/product-photo-retouching',
  '/photo-editing-services-for-ecommerce',
  '/cost-of-professional-product-photography',
  '/fashion-product-photos',
  '/jewelry-product-photos',
  '/beauty-product-photos',
  '/home-decor-product-photos',
  '/electronics-product-photos',
  '/restaurant-menu-photos',
  '/fitness-product-photos',
  '/pet-product-photos',
  '/baby-product-photos',
];

describe('content files', () => {
  const pages = compileContent(contentDir);
  const routes = siteRoutes(pages);

  it('serve exactly the marketing and legal routes of SPEC §2, each once', () => {
    expect(routes.map((route) => route.path).sort()).toEqual([...SPEC_ROUTES].sort());
    expect(routes.find((route) => route.path === '/amazon-product-photography')?.canonicalPath).toBe(
      '/professional-amazon-product-photography',
    );
  });

  it('give every page its own title and description', () => {
    const titles = pages.map((page) => page.title);
    const descriptions = pages.map((page) => page.description);
    expect(new Set(titles).size).toBe(titles.length);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    for (const text of [...titles, ...descriptions]) expect(text).not.toMatch(/\{\{|lorem|todo|placeholder/i);
  });

  it('publish the privacy policy with its date and sections in SPEC order and the support email link', () => {
    const privacy = pages.find((page) => page.route === '/privacy')!;
    expect(privacy.published).toBe('May 6th, 2025');
    const headings = [...privacy.bodyHtml.matchAll(/<h2>(.*?)<\/h2>/g)].map((match) => match[1]);
    expect(headings).toEqual([
      'Purpose',
      'Personal Data',
      'Consent and Collection of Personal Data',
      'Age of Consent',
      'Anonymous Information',
      'Personal Data Use',
      'Legal Basis for Processing',
      'Contact &amp; Questions',
    ]);
    expect(privacy.bodyHtml).toContain('href="mailto:support@productgen.example"');
    for (const basis of ['Performance of a contract', 'Legal obligations', 'Legitimate interests']) {
      expect(privacy.bodyHtml).toContain(basis);
    }
  });

  it('state the terms SPEC §1 sets: age 16, final purchases, expiry shown at purchase, California law', () => {
    const terms = pages.find((page) => page.route === '/terms')!.bodyHtml;
    expect(terms).toMatch(/at least 16 years old/);
    expect(terms).toMatch(/Purchases are final and non-refundable/);
    expect(terms).toMatch(/shown at the time of purchase/);
    expect(terms).toMatch(/State of California/);
    const cookies = pages.find((page) => page.route === '/cookies-policy')!.bodyHtml;
    expect(cookies).toMatch(/Necessary cookies[\s\S]*Analytics cookies[\s\S]*Marketing cookies/);
  });

  it('show the marketing figures of SPEC §9 on the cost page', () => {
    const cost = pages.find((page) => page.route === '/cost-of-professional-product-photography')!;
    const table = cost.sections.find((section) => section.kind === 'costs');
    expect(table?.kind === 'costs' && table.rows.map((row) => row.cost)).toEqual(
      expect.arrayContaining(['$25-100+', '$50-$200', '$1,000-$5,000', '$5-$20']),
    );
  });
});

describe('the content schema', () => {
  const valid = readFileSync(path.join(contentDir, 'fashion-product-photos.md'), 'utf8');

  it('rejects a title over 60 characters and a short description, naming the file and the field', () => {
    const broken = valid
      .replace(/^title: .*$/m, `title: ${'A very long title '.repeat(4)}`)
      .replace(/^description: .*$/m, 'description: Too short.');
    expect(() => compilePage('broken.md', broken)).toThrow(ContentError);
    expect(() => compilePage('broken.md', broken)).toThrow(/broken\.md:[\s\S]*title: a title has at most 60/);
    expect(() => compilePage('broken.md', broken)).toThrow(/description: a description has at least 70/);
  });

  it('requires the three category steps in order and an unknown section kind fails', () => {
    expect(() => compilePage('steps.md', valid.replace('title: Take a photo', 'title: Snap it'))).toThrow(
      /"Take a photo", "Upload and transform", "Download and use"/,
    );
    expect(() => compilePage('kind.md', valid.replace('kind: benefits', 'kind: testimonials'))).toThrow(ContentError);
  });

  it('refuses two files serving the same path', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'content-'));
    writeFileSync(path.join(dir, 'a.md'), valid);
    writeFileSync(path.join(dir, 'b.md'), valid);
    expect(() => compileContent(dir)).toThrow(/b\.md: the path \/fashion-product-photos is already served by a\.md/);
  });
});

describe("the texts of other apps' public pages (the free tools, /pricing)", () => {
  const pages = compileContent(contentDir);
  const tool = readFileSync(path.join(contentDir, 'image-resizer.md'), 'utf8');
  const category = readFileSync(path.join(contentDir, 'fashion-product-photos.md'), 'utf8');

  it("cover every public route of the route table, outside this app's routes and with the route table's meta", () => {
    const publicPaths = ROUTE_TABLE.filter((entry) => entry.indexable).map((entry) => entry.path);
    expect(
      appPages(pages)
        .map((page) => page.path)
        .sort(),
    ).toEqual([...publicPaths].sort());
    expect(siteRoutes(pages).map((route) => route.path)).not.toEqual(expect.arrayContaining(['/pricing']));
    for (const entry of ROUTE_TABLE.filter((candidate) => candidate.indexable)) {
      const page = pages.find((candidate) => candidate.route === entry.path)!;
      expect({ title: page.title, description: page.description, hero: page.hero }).toEqual({
        title: entry.title,
        description: entry.description,
        hero: { headline: entry.title, lead: entry.description },
      });
    }
  });

  it('a tool page needs its steps, privacy note, sample, FAQ and explanation, and no meta of its own', () => {
    const rules = {
      steps: 'a tool page lists the steps to use it',
      privacy: 'a tool page says what happens to the files (privacy)',
      'tool-sample': 'a tool page shows a before/after sample',
      faq: 'a tool page has an FAQ',
    };
    for (const [kind, rule] of Object.entries(rules)) {
      const file = matter(tool);
      file.data.sections = (file.data.sections as Array<{ kind: string }>).filter((section) => section.kind !== kind);
      expect(() => compilePage('tool.md', matter.stringify(file.content, file.data))).toThrow(rule);
    }
    expect(() => compilePage('tool.md', tool.replace(/\n---\n[\s\S]*$/, '\n---\n'))).toThrow(
      /a tool page explains the tool in its text/,
    );
    expect(() => compilePage('tool.md', tool.replace('kind: tool\n', 'kind: tool\ntitle: My own title\n'))).toThrow(
      /title: a tool page takes its title from the route table/,
    );
    expect(() => compilePage('tool.md', tool.replace('route: /image-resizer', 'route: /dashboard'))).toThrow(
      /route: a tool page is for a public route of the route table/,
    );
  });

  it("another kind of page cannot take an app's route", () => {
    expect(() =>
      compilePage('pricing.md', category.replace('route: /fashion-product-photos', 'route: /pricing')),
    ).toThrow(/\/pricing belongs to another app/);
  });
});

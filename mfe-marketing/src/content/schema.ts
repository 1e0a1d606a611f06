import { z } from 'zod';

// The front matter of a content file (mfe-marketing/content/*.md), validated at build: a file that breaks a rule
// stops the build with its name and the rule, so the marketing team learns about a mistake before visitors do.

const text = z.string().trim().min(1);
const routePath = z
  .string()
  .regex(/^\/([a-z0-9]+(-[a-z0-9]+)*)?$/, 'a route is "/" or "/lower-case-words-with-dashes"');

/** The demo samples the build renders through the studio engine (build/demo-samples.js). */
export const SAMPLE_IDS = ['guitar', 'pot', 'shoes', 'mug', 'paperbag'] as const;
export const sampleId = z.enum(SAMPLE_IDS);

const titledItem = z.object({ title: text, text });

const benefits = z.object({ kind: z.literal('benefits'), title: text, items: z.array(titledItem).min(2).max(6) });
const howItWorks = z.object({
  kind: z.literal('how-it-works'),
  title: text,
  steps: z.array(titledItem).length(3),
});
const examples = z.object({
  kind: z.literal('examples'),
  title: text,
  /** One before/after pair per item: a demo sample and which of its studio results to show. */
  items: z
    .array(z.object({ sample: sampleId, result: z.number().int().min(0).max(4), caption: text }))
    .min(1)
    .max(9),
  /** "one": the page shows one of the sets, picked at random per view (the Shopify editor page). */
  show: z.enum(['all', 'one']).default('all'),
});
const faq = z.object({
  kind: z.literal('faq'),
  title: text,
  items: z.array(z.object({ question: text, answer: text })).min(1),
});
const workflows = z.object({ kind: z.literal('workflows'), title: text, items: z.array(titledItem).min(1) });
const pricing = z.object({
  kind: z.literal('pricing'),
  title: text,
  text: text.optional(),
  items: z.array(z.object({ price: text, images: text, note: text })).min(1),
});
const costs = z.object({
  kind: z.literal('costs'),
  title: text,
  rows: z.array(z.object({ item: text, cost: text })).min(1),
  note: text.optional(),
});
const cta = z.object({
  kind: z.literal('cta'),
  title: text,
  text,
  /** The label signed-in visitors see (default "Create now"), e.g. "Try Batch Create Now" on the batch page. */
  signedInLabel: text.default('Create now'),
});
const pluginLink = z.object({
  kind: z.literal('plugin-link'),
  title: text,
  text,
  label: z.literal('Install on Shopify'),
  href: z.url(),
});
const demo = z.object({ kind: z.literal('demo'), title: text, text });
/** A short pointer to another page, e.g. the landing page's batch teaser. */
const teaser = z.object({ kind: z.literal('teaser'), title: text, text, label: text, href: routePath });
/** Third-party listings the product appears on (outbound links). */
const badges = z.object({
  kind: z.literal('badges'),
  title: text,
  items: z.array(z.object({ label: text, href: z.url() })).min(1),
});
/** Where the Markdown body of the file goes (default: right after the hero). */
const article = z.object({ kind: z.literal('article') });

export const sectionSchema = z.discriminatedUnion('kind', [
  benefits,
  howItWorks,
  examples,
  faq,
  workflows,
  pricing,
  costs,
  cta,
  pluginLink,
  demo,
  teaser,
  badges,
  article,
]);

export const PAGE_KINDS = [
  'landing',
  'login',
  'category',
  'marketplace',
  'plugin',
  'batch',
  'cost',
  'guide',
  'legal',
] as const;

/** SPEC §2 "Category pages": the three steps, in this order. */
export const CATEGORY_STEPS = ['Take a photo', 'Upload and transform', 'Download and use'] as const;

type Section = z.infer<typeof sectionSchema>;
type SectionOf<K extends Section['kind']> = Extract<Section, { kind: K }>;

export const frontMatterSchema = z
  .object({
    route: routePath,
    /** Other paths that serve the same page (canonical stays `route`), e.g. /amazon-product-photography. */
    aliases: z.array(routePath).default([]),
    kind: z.enum(PAGE_KINDS),
    title: text.max(60, 'a title has at most 60 characters (search results cut longer ones)'),
    description: text
      .min(70, 'a description has at least 70 characters')
      .max(160, 'a description has at most 160 characters (search results cut longer ones)'),
    /** Legal pages: the publication date shown under the heading, e.g. "May 6th, 2025". */
    published: text.optional(),
    hero: z.object({
      headline: text,
      lead: text,
      /** A demo sample whose before/after pair illustrates the hero. */
      sample: sampleId.optional(),
    }),
    sections: z.array(sectionSchema).default([]),
  })
  .superRefine((page, context) => {
    const find = <K extends Section['kind']>(kind: K) =>
      page.sections.filter((section): section is SectionOf<K> => section.kind === kind);
    const require = (condition: boolean, message: string) => {
      if (!condition) context.addIssue({ code: 'custom', message, path: ['sections'] });
    };
    switch (page.kind) {
      case 'category': {
        require(find('benefits')[0]?.items.length === 4, 'a category page has one benefits section with 4 cards');
        const steps = find('how-it-works')[0]?.steps.map((step) => step.title);
        require(JSON.stringify(steps) ===
          JSON.stringify(
            CATEGORY_STEPS,
          ), `a category page explains the three steps ${CATEGORY_STEPS.map((step) => `"${step}"`).join(', ')}`);
        require(find('cta').length === 1, 'a category page ends with a call to action');
        break;
      }
      case 'marketplace':
        require(find('examples')[0]?.items.length === 6, 'a marketplace page shows six examples');
        require(find('faq').length === 1, 'a marketplace page has an FAQ');
        break;
      case 'plugin':
        require(find('plugin-link').length > 0, 'a plugin page links to the listing with "Install on Shopify"');
        break;
      case 'batch':
        require(find('demo').length === 1, 'the batch page has a demo animation');
        require(find('workflows').length === 1, 'the batch page has workflows');
        require(find('pricing').length === 1, 'the batch page has a pricing section');
        break;
      case 'landing':
        require(find('demo').length === 1, 'the landing page has the demo widget');
        require(find('teaser').length === 1, 'the landing page has a batch teaser');
        require(find('benefits')[0]?.items.length === 3, 'the landing page has three feature cards');
        require(find('how-it-works').length === 1, 'the landing page has a three-step explainer');
        require(find('cta').length === 1, 'the landing page has a closing call to action');
        require(find('badges').length === 1, 'the landing page shows the listing badges');
        break;
      case 'cost':
        require(find('costs').length > 0, 'a cost page has a costs table');
        break;
      default:
        break;
    }
  });

export type FrontMatter = z.output<typeof frontMatterSchema>;
export type PageSection = z.output<typeof sectionSchema>;
export type PageKind = FrontMatter['kind'];
export type SampleId = (typeof SAMPLE_IDS)[number];

/** A content file after the build: its front matter plus its Markdown body as HTML. */
export interface PageContent extends FrontMatter {
  /** File name without .md: names the page's data file and prerendered document. */
  slug: string;
  bodyHtml: string;
}

/** One entry of the routes manifest (routes.json) the shell and the web origin read. */
export interface SiteRoute {
  path: string;
  slug: string;
  title: string;
  description: string;
  /** The page's own path when this entry is an alias. */
  canonicalPath: string;
}

/** An image the build produced, with its pixel size (explicit sizes keep the layout from shifting). */
export interface SiteImage {
  file: string;
  width: number;
  height: number;
}

/** A demo sample: the phone photo, what it shows, its credit, and the studio engine's results made from it. */
export interface DemoSample {
  id: SampleId;
  /** The product SPEC names for the slot, e.g. "paper bag". */
  slot: string;
  /** What the photo really shows (a slot without a licensed photo uses another licensed demo photo). */
  shows: string;
  photo: SiteImage;
  thumbnail: SiteImage;
  results: SiteImage[];
  credit: string;
}

/** What every page of the app reads: the routes, the site URL for canonical links and the demo samples. */
export interface SiteIndex {
  siteUrl: string;
  routes: SiteRoute[];
  samples: DemoSample[];
}

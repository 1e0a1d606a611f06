import { z } from 'zod';
import type { PackageTier } from '@productgen/contracts';
import { ROUTE_TABLE, type RouteEntry } from '@productgen/mf-shared/routes';

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
/** A numbered list of what to do, one sentence each (a free tool's how-to). */
const steps = z.object({ kind: z.literal('steps'), title: text, items: z.array(text).min(2).max(8) });
/** What happens to the visitor's files (a free tool: it runs in the browser, nothing is uploaded). */
const privacy = z.object({ kind: z.literal('privacy'), title: text, text });

/** The free tools whose before/after samples mfe-tools' build makes (mfe-tools/build/make-samples.js). */
export const TOOL_IDS = ['resizer', 'remover', 'upscaler', 'eraser'] as const;
/** One of the six before/after pairs the tool's own code made from the demo photos. */
const toolSample = z.object({
  kind: z.literal('tool-sample'),
  title: text,
  tool: z.enum(TOOL_IDS),
  pair: z.number().int().min(1).max(6),
  caption: text,
});
/** The credit packages, as billing sells them (the contracts' package tiers, filled in by the build). */
const packages = z.object({ kind: z.literal('packages'), title: text, text: text.optional() });

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
  steps,
  privacy,
  toolSample,
  packages,
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
  'tool',
  'pricing',
] as const;

/**
 * Kinds whose page is another app's public route (the free tools, /pricing; mf-shared's route table): the file gives
 * the text the web origin prerenders for that route, and the app replaces it when it mounts. Their title,
 * description, heading and lead are the route table's, which the app shows, so nothing changes when it mounts.
 */
export const APP_PAGE_KINDS = ['tool', 'pricing'] as const;
type AppPageKind = (typeof APP_PAGE_KINDS)[number];

export function isAppPageKind(kind: string): kind is AppPageKind {
  return (APP_PAGE_KINDS as readonly string[]).includes(kind);
}

/** The public route-table entry an app page's file is for, or null. */
function publicRouteEntry(route: string): RouteEntry | null {
  return ROUTE_TABLE.find((entry) => entry.path === route && entry.indexable) ?? null;
}

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
    // Optional only for app pages (APP_PAGE_KINDS), which take them from the route table; required for the rest.
    title: text.max(60, 'a title has at most 60 characters (search results cut longer ones)').optional(),
    description: text
      .min(70, 'a description has at least 70 characters')
      .max(160, 'a description has at most 160 characters (search results cut longer ones)')
      .optional(),
    /** Legal pages: the publication date shown under the heading, e.g. "May 6th, 2025". */
    published: text.optional(),
    hero: z
      .object({
        headline: text,
        lead: text,
        /** A demo sample whose before/after pair illustrates the hero. */
        sample: sampleId.optional(),
      })
      .optional(),
    sections: z.array(sectionSchema).default([]),
  })
  .superRefine((page, context) => {
    const find = <K extends Section['kind']>(kind: K) =>
      page.sections.filter((section): section is SectionOf<K> => section.kind === kind);
    const require = (condition: boolean, message: string) => {
      if (!condition) context.addIssue({ code: 'custom', message, path: ['sections'] });
    };
    const entry = publicRouteEntry(page.route);
    if (isAppPageKind(page.kind)) {
      const mustNotSet = (['title', 'description', 'hero'] as const).filter((field) => page[field] !== undefined);
      for (const field of mustNotSet) {
        context.addIssue({
          code: 'custom',
          message: `a ${page.kind} page takes its ${field} from the route table (mf-shared routes.ts), which its app shows`,
          path: [field],
        });
      }
      if (!entry) {
        context.addIssue({
          code: 'custom',
          message: `a ${page.kind} page is for a public route of the route table (mf-shared routes.ts)`,
          path: ['route'],
        });
      }
    } else {
      for (const field of ['title', 'description', 'hero'] as const) {
        if (page[field] === undefined) context.addIssue({ code: 'custom', message: 'required', path: [field] });
      }
      if (ROUTE_TABLE.some((candidate) => candidate.path === page.route)) {
        context.addIssue({
          code: 'custom',
          message: `${page.route} belongs to another app (mf-shared routes.ts); its text is a "tool" or "pricing" page`,
          path: ['route'],
        });
      }
    }
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
      case 'tool':
        require(find('steps').length === 1, 'a tool page lists the steps to use it');
        require(find('privacy').length === 1, 'a tool page says what happens to the files (privacy)');
        require(find('tool-sample').length === 1, 'a tool page shows a before/after sample');
        require(find('faq').length === 1, 'a tool page has an FAQ');
        require(find('cta').length === 1, 'a tool page ends with a call to action');
        break;
      case 'pricing':
        require(find('packages').length === 1, 'the pricing page shows the packages');
        require(find('faq').length === 1, 'the pricing page has an FAQ');
        break;
      default:
        break;
    }
  })
  // App pages: the route table's title, description, heading and lead (validated above, so the entry exists).
  .transform((page) => {
    const entry = publicRouteEntry(page.route);
    return {
      ...page,
      title: page.title ?? entry?.title ?? '',
      description: page.description ?? entry?.description ?? '',
      hero: page.hero ?? { headline: entry?.title ?? '', lead: entry?.description ?? '' },
    };
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
  /**
   * Other apps' public routes with a prerendered text here (APP_PAGE_KINDS): kept out of `routes`, which the shell
   * routes to this app, and read by the web origin only.
   */
  appPages?: Array<{ path: string; slug: string }>;
  /** The credit packages (the contracts' package tiers) the pricing text shows. */
  packages?: PackageTile[];
}

/** A credit package as the pricing text shows it: the contracts' package tier, without what only checkout needs. */
export type PackageTile = Omit<PackageTier, 'priceCents' | 'perImageCents' | 'purchasable'>;

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { z } from 'zod';
import { frontMatterSchema, isAppPageKind, type PageContent, type SiteIndex, type SiteRoute } from './schema';

// Build-time only (Node): reads every content file, validates its front matter and turns its Markdown into HTML.

export class ContentError extends Error {
  override name = 'ContentError';
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`).join('\n');
}

/** Values the content refers to as {{name}}, so configured names reach every page. */
export interface ContentTokens {
  product: string;
  supportEmail: string;
}

export const DEFAULT_TOKENS: ContentTokens = { product: 'ProductGen', supportEmail: 'support@productgen.example' };

function fillTokens(source: string, tokens: ContentTokens): string {
  return source.replace(/\{\{(\w+)\}\}/g, (token, name: string) =>
    Object.hasOwn(tokens, name) ? tokens[name as keyof ContentTokens] : token,
  );
}

/**
 * What a page's Markdown may become: the elements Markdown itself writes (headings, paragraphs, lists, emphasis,
 * links, images, quotes, code, tables), links to http(s) and mailto only, no attributes beyond those. The HTML goes
 * into the prerendered page and through dangerouslySetInnerHTML on the web origin, so whoever edits content must
 * not be able to run script there: raw HTML in the Markdown (script, iframe, style, event handlers, javascript:
 * URLs) is dropped here, at build time, once for both places.
 */
const ARTICLE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'ul', 'ol', 'li'],
    ...['strong', 'em', 'del', 'code', 'pre', 'a', 'img'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
  },
  // marked marks a fenced block's language as class="language-…".
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Dropped with their content: what they hold is script, CSS or form state, never article text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
};

/** A page's Markdown as HTML that is safe to put into the web origin's pages. */
export function markdownToSafeHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false }), ARTICLE_HTML);
}

/** One content file: throws a ContentError naming the file and every broken rule. */
export function compilePage(fileName: string, source: string, tokens: ContentTokens = DEFAULT_TOKENS): PageContent {
  let parsedFile: { data: unknown; content: string };
  try {
    parsedFile = matter(fillTokens(source, tokens));
  } catch (error) {
    // A YAML mistake (e.g. an unquoted ": " in a value) with its line and column.
    throw new ContentError(`${fileName}: the front matter is not valid YAML: ${(error as Error).message}`);
  }
  const { data, content } = parsedFile;
  const parsed = frontMatterSchema.safeParse(data);
  if (!parsed.success) throw new ContentError(`${fileName}:\n${describeIssues(parsed.error)}`);
  const bodyHtml = markdownToSafeHtml(content.trim());
  if (parsed.data.kind === 'legal' && !bodyHtml) throw new ContentError(`${fileName}: a legal page needs its text`);
  if (parsed.data.kind === 'tool' && !bodyHtml) {
    throw new ContentError(`${fileName}: a tool page explains the tool in its text (the Markdown body)`);
  }
  return { ...parsed.data, slug: path.basename(fileName, '.md'), bodyHtml };
}

/** Every page of a content folder, checked together: one file per route, no path served twice. */
export function compileContent(contentDir: string, tokens?: ContentTokens): PageContent[] {
  const files = readdirSync(contentDir)
    .filter((file) => file.endsWith('.md'))
    .sort();
  const errors: string[] = [];
  const pages: PageContent[] = [];
  for (const file of files) {
    try {
      pages.push(compilePage(file, readFileSync(path.join(contentDir, file), 'utf8'), tokens));
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      errors.push(error.message);
    }
  }
  const owners = new Map<string, string>();
  for (const page of pages) {
    for (const routePath of [page.route, ...page.aliases]) {
      const other = owners.get(routePath);
      if (other) errors.push(`${page.slug}.md: the path ${routePath} is already served by ${other}.md`);
      owners.set(routePath, page.slug);
    }
  }
  if (errors.length > 0) throw new ContentError(`The content files have mistakes:\n${errors.join('\n')}`);
  return pages;
}

/**
 * The routes manifest: each page's path and its aliases, with the meta a router and a sitemap need. App pages (the
 * tools' and pricing's texts) are not this app's routes: their apps render them (see appPages).
 */
export function siteRoutes(pages: readonly PageContent[]): SiteRoute[] {
  return pages
    .filter((page) => !isAppPageKind(page.kind))
    .flatMap((page) =>
      [page.route, ...page.aliases].map((routePath) => ({
        path: routePath,
        slug: page.slug,
        title: page.title,
        description: page.description,
        canonicalPath: page.route,
      })),
    );
}

/** Other apps' public routes this app prerenders a text for, which only the web origin reads. */
export function appPages(pages: readonly PageContent[]): NonNullable<SiteIndex['appPages']> {
  return pages.filter((page) => isAppPageKind(page.kind)).map((page) => ({ path: page.route, slug: page.slug }));
}

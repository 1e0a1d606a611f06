import { usePageMeta } from '@productgen/mf-shared';
import { useSession } from '@productgen/platform-client';
import type { PageContent } from '../content/schema';
import { getSiteIndex, usePageContent } from '../content/site-data';
import { CallToAction, JoinButton } from '../cta';
import { BeforeAfter, sampleById } from './images';
import { Article, Section } from './sections';
import styles from './Page.module.css';

/** The page meta every prerendered document and every client render set (one source: the content file). */
export function pageMetaOf(page: PageContent, siteUrl: string) {
  const faq = page.sections.flatMap((section) => (section.kind === 'faq' ? section.items : []));
  // A free tool's page describes the tool itself as an application (image tools that run in the browser).
  const application = page.kind === 'tool' ? { name: page.title, category: 'MultimediaApplication' } : undefined;
  return { title: page.title, description: page.description, path: page.route, siteUrl, faq, application };
}

function HeroActions({ page }: { page: PageContent }) {
  const { signedIn } = useSession();
  if (page.kind === 'legal') return null;
  const plugin = page.sections.find((section) => section.kind === 'plugin-link');
  if (plugin) {
    return (
      <a className={styles.heroLink} href={plugin.href} rel="noopener" target="_blank">
        {plugin.label}
      </a>
    );
  }
  const cta = page.sections.find((section) => section.kind === 'cta');
  return (
    <div className={styles.heroActions}>
      {page.kind === 'landing' && !signedIn && <JoinButton />}
      <CallToAction signedInLabel={cta?.signedInLabel} />
    </div>
  );
}

export function ContentView({ page }: { page: PageContent }) {
  const index = getSiteIndex();
  usePageMeta(pageMetaOf(page, index.siteUrl));
  const heroSample = page.hero.sample ? sampleById(page.hero.sample) : null;
  const articlePlaced = page.sections.some((section) => section.kind === 'article');
  return (
    <article className={page.kind === 'legal' ? styles.legal : styles.page}>
      <header className={heroSample ? styles.heroWithImage : styles.hero}>
        <div className={styles.heroText}>
          <h1 className={styles.headline}>{page.hero.headline}</h1>
          {page.published && <p className={styles.published}>Published {page.published}</p>}
          <p className={styles.lead}>{page.hero.lead}</p>
          <HeroActions page={page} />
        </div>
        {heroSample && <BeforeAfter sample={heroSample} eager />}
      </header>
      {!articlePlaced && page.bodyHtml && <Article html={page.bodyHtml} />}
      {page.sections.map((section, position) => (
        <Section key={`${section.kind}-${position}`} section={section} page={page} />
      ))}
    </article>
  );
}

/** The route element of a content file. */
export function ContentPage({ slug }: { slug: string }) {
  return <ContentView page={usePageContent(slug)} />;
}

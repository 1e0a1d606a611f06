import { useEffect, useState } from 'react';
import { LinkButton } from '@productgen/ui-kit';
import type { PageContent, PageSection } from '../content/schema';
import { getSiteIndex } from '../content/site-data';
import { CallToAction } from '../cta';
import { DemoWidget } from '../landing/DemoWidget';
import { BeforeAfter, sampleById, SiteImg } from './images';
import styles from './Page.module.css';

type SectionOf<K extends PageSection['kind']> = Extract<PageSection, { kind: K }>;

function Cards({ items }: { items: ReadonlyArray<{ title: string; text: string }> }) {
  return (
    <ul className={styles.cards}>
      {items.map((item) => (
        <li key={item.title} className={styles.card}>
          <h3 className={styles.cardTitle}>{item.title}</h3>
          <p>{item.text}</p>
        </li>
      ))}
    </ul>
  );
}

function Steps({ section }: { section: SectionOf<'how-it-works'> }) {
  return (
    <ol className={styles.steps}>
      {section.steps.map((step, index) => (
        <li key={step.title} className={styles.step}>
          <span className={styles.stepNumber} aria-hidden="true">
            {index + 1}
          </span>
          <h3 className={styles.cardTitle}>{step.title}</h3>
          <p>{step.text}</p>
        </li>
      ))}
    </ol>
  );
}

/** Six before/after sets; the Shopify editor page shows one of them, picked at random per view (SPEC §2). */
function Examples({ section }: { section: SectionOf<'examples'> }) {
  const [picked, setPicked] = useState(0);
  useEffect(() => {
    // After hydration, so the prerendered page and the first client render agree.
    if (section.show === 'one') setPicked(Math.floor(Math.random() * section.items.length));
  }, [section]);
  const items = section.show === 'one' ? section.items.slice(picked, picked + 1) : section.items;
  return (
    <div className={section.show === 'one' ? styles.single : styles.examples}>
      {items.map((item) => {
        const sample = sampleById(item.sample);
        return sample ? (
          <BeforeAfter key={item.caption} sample={sample} result={item.result} caption={item.caption} />
        ) : null;
      })}
    </div>
  );
}

function Faq({ section }: { section: SectionOf<'faq'> }) {
  return (
    <div className={styles.faq}>
      {section.items.map((item) => (
        <details key={item.question} className={styles.question}>
          <summary>{item.question}</summary>
          <p>{item.answer}</p>
        </details>
      ))}
    </div>
  );
}

function Pricing({ section }: { section: SectionOf<'pricing'> }) {
  return (
    <>
      {section.text && <p className={styles.sectionLead}>{section.text}</p>}
      <ul className={styles.cards}>
        {section.items.map((item) => (
          <li key={item.price} className={styles.card}>
            <p className={styles.price}>{item.price}</p>
            <p className={styles.cardTitle}>{item.images}</p>
            <p>{item.note}</p>
          </li>
        ))}
      </ul>
      <p>
        <a href="/pricing">See every credit package</a>
      </p>
    </>
  );
}

function Costs({ section }: { section: SectionOf<'costs'> }) {
  return (
    <>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">What you pay for</th>
            <th scope="col">Typical cost</th>
          </tr>
        </thead>
        <tbody>
          {section.rows.map((row) => (
            <tr key={row.item}>
              <th scope="row">{row.item}</th>
              <td>{row.cost}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {section.note && <p className={styles.note}>{section.note}</p>}
    </>
  );
}

/** The batch page's demo: every sample turns into its studio result one after another (CSS only). */
function BatchAnimation() {
  const samples = getSiteIndex().samples;
  return (
    <ul className={styles.batchGrid} aria-label="A batch of phone photos turning into studio photos">
      {samples.map((sample, index) => (
        <li key={sample.id} className={styles.batchTile} style={{ animationDelay: `${index * 0.8}s` }}>
          <SiteImg image={sample.thumbnail} alt={`Phone photo: ${sample.shows}`} />
          {sample.results[0] && (
            <SiteImg image={sample.results[0]} alt={`Studio photo: ${sample.shows}`} className={styles.batchResult} />
          )}
        </li>
      ))}
    </ul>
  );
}

function SectionBody({ section, page }: { section: PageSection; page: PageContent }) {
  switch (section.kind) {
    case 'benefits':
    case 'workflows':
      return <Cards items={section.items} />;
    case 'how-it-works':
      return <Steps section={section} />;
    case 'examples':
      return <Examples section={section} />;
    case 'faq':
      return <Faq section={section} />;
    case 'pricing':
      return <Pricing section={section} />;
    case 'costs':
      return <Costs section={section} />;
    case 'cta':
      return (
        <div className={styles.ctaBlock}>
          <p>{section.text}</p>
          <CallToAction signedInLabel={section.signedInLabel} />
        </div>
      );
    case 'plugin-link':
      return (
        <div className={styles.ctaBlock}>
          <p>{section.text}</p>
          <LinkButton href={section.href} size="lg" rel="noopener" target="_blank">
            {section.label}
          </LinkButton>
        </div>
      );
    case 'demo':
      return (
        <>
          <p className={styles.sectionLead}>{section.text}</p>
          {page.kind === 'landing' ? <DemoWidget /> : <BatchAnimation />}
        </>
      );
    case 'teaser':
      return (
        <div className={styles.ctaBlock}>
          <p>{section.text}</p>
          <LinkButton href={section.href} variant="secondary" size="lg">
            {section.label}
          </LinkButton>
        </div>
      );
    case 'badges':
      return (
        <ul className={styles.badges}>
          {section.items.map((item) => (
            <li key={item.href}>
              <a className={styles.listingBadge} href={item.href} rel="noopener" target="_blank">
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      );
    case 'article':
      return <Article html={page.bodyHtml} />;
  }
}

/** The Markdown body of the content file, turned into HTML at build. */
export function Article({ html }: { html: string }) {
  return <div className={styles.article} dangerouslySetInnerHTML={{ __html: html }} />;
}

export function Section({ section, page }: { section: PageSection; page: PageContent }) {
  if (section.kind === 'article') return <SectionBody section={section} page={page} />;
  const id = section.kind === 'demo' ? 'demo' : undefined;
  return (
    <section id={id} className={section.kind === 'cta' ? styles.closing : styles.section}>
      <h2 className={styles.sectionTitle}>{section.title}</h2>
      <SectionBody section={section} page={page} />
    </section>
  );
}

import { useEffect, useState } from 'react';
import { LinkButton } from '@productgen/ui-kit';
import type { PageContent, PageSection } from '../content/schema';
import { getSiteIndex, otherAppAssetUrl } from '../content/site-data';
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

/**
 * The before/after pair's files in mfe-tools' build output (tool-assets/samples, see mfe-tools/build/make-samples.js):
 * the upscaler starts from a small copy, the others from the photo.
 */
const TOOL_SAMPLE_FILES: Record<SectionOf<'tool-sample'>['tool'], { before: string; after: string }> = {
  resizer: { before: 'before', after: 'resized' },
  remover: { before: 'before', after: 'nobg' },
  upscaler: { before: 'small', after: 'upscaled' },
  eraser: { before: 'before', after: 'erased' },
};

/** A free tool's before/after pair, made by the tool's own code at mfe-tools' build. */
function ToolSample({ section }: { section: SectionOf<'tool-sample'> }) {
  const files = TOOL_SAMPLE_FILES[section.tool];
  const image = (step: 'before' | 'after') =>
    otherAppAssetUrl('mfe_tools', `tool-assets/samples/${section.pair}-${files[step]}.webp`);
  // The panels have a fixed shape (the pictures are contained in them), so nothing moves as they load.
  return (
    <figure className={`${styles.beforeAfter} ${styles.single}`}>
      <div className={styles.pair}>
        <div className={`${styles.panel} ${styles.contain}`}>
          <span className={styles.badge}>Before</span>
          <img src={image('before')} alt={`Before: ${section.caption}`} width={512} height={512} loading="lazy" />
        </div>
        <div className={`${styles.panel} ${styles.contain}`}>
          <span className={styles.badge}>After</span>
          <img src={image('after')} alt={`After: ${section.caption}`} width={512} height={512} loading="lazy" />
        </div>
      </div>
      <figcaption className={styles.caption}>{section.caption}</figcaption>
    </figure>
  );
}

/** The credit packages as billing sells them (the contracts' tiers the build put into the site index). */
function Packages({ section }: { section: SectionOf<'packages'> }) {
  const tiles = getSiteIndex().packages ?? [];
  return (
    <>
      {section.text && <p className={styles.sectionLead}>{section.text}</p>}
      <ul className={styles.cards} aria-label="Credit packages">
        {tiles.map((tile) => (
          <li key={tile.packageId} className={styles.card}>
            {tile.mostPopular && <span className={styles.popular}>Most popular</span>}
            <h3 className={styles.cardTitle}>{tile.name}</h3>
            <p className={styles.price}>{tile.price}</p>
            <p>
              {tile.oldImages !== null && (
                <>
                  <del aria-label={`was ${tile.oldImages} images`}>{tile.oldImages}</del>{' '}
                </>
              )}
              <strong>{tile.images}</strong> images{tile.packageId === 0 ? ' on signup' : ''}
            </p>
            <ul className={styles.facts}>
              {tile.perImagePrice && <li>{tile.perImagePrice} per image</li>}
              {tile.savingsPercent !== null && <li>{tile.savingsPercent}% savings</li>}
              <li>{tile.watermark ? 'Watermarked images' : 'No watermark'}</li>
              {tile.commercialUse && <li>Commercial use allowed</li>}
            </ul>
          </li>
        ))}
      </ul>
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
    case 'steps':
      return (
        <ol className={styles.numbered}>
          {section.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ol>
      );
    case 'privacy':
      return <p className={styles.sectionLead}>{section.text}</p>;
    case 'tool-sample':
      return <ToolSample section={section} />;
    case 'packages':
      return <Packages section={section} />;
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

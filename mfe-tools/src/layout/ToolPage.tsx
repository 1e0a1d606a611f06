import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageIntro, routeEntry } from '@productgen/mf-shared';
import { buttonClassName } from '@productgen/ui-kit';
import { useSession } from '@productgen/platform-client';
import { TEXTS } from '../texts';
import { BeforeAfterSample, type SampleTool } from './BeforeAfterSample';
import styles from './ToolPage.module.css';

export interface ToolPageProps {
  path: string;
  sample: SampleTool;
  howTo: string[];
  children: ReactNode;
}

/** The layout every free tool shares: intro, the tool, a before/after sample, how to use it, the call to action. */
export function ToolPage({ path, sample, howTo, children }: ToolPageProps) {
  const { user } = useSession();
  return (
    <PageIntro entry={routeEntry(path)}>
      <div className={styles.tool}>{children}</div>
      <BeforeAfterSample tool={sample} />
      <section className={styles.howTo} aria-labelledby="how-to-heading">
        <h2 id="how-to-heading">How to use it</h2>
        <ol>
          {howTo.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
      <section className={styles.cta}>
        <h2>Want studio-quality product photos?</h2>
        <p>ProductGen turns your phone photos into professional product shots in minutes.</p>
        {user ? (
          <Link className={buttonClassName({ size: 'lg' })} to="/productgen">
            {TEXTS.ctaSignedIn}
          </Link>
        ) : (
          <Link className={buttonClassName({ size: 'lg' })} to="/login">
            {TEXTS.ctaSignedOut}
          </Link>
        )}
      </section>
    </PageIntro>
  );
}

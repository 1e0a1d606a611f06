import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '@productgen/platform-client';
import { requestSignIn, usePageMeta } from '@productgen/mf-shared';
import { Button, Spinner } from '@productgen/ui-kit';
import { getSiteIndex, usePageContent } from '../content/site-data';
import { pageMetaOf } from '../pages/ContentPage';
import { BeforeAfter } from '../pages/images';
import { Section } from '../pages/sections';
import styles from '../pages/Page.module.css';

/** /login: the welcome page signed-out visitors are sent to; signed-in users go on to their dashboard. */
export function LoginPage({ slug = 'login' }: { slug?: string }) {
  const page = usePageContent(slug);
  const { samples, siteUrl } = getSiteIndex();
  usePageMeta(pageMetaOf(page, siteUrl));
  const navigate = useNavigate();
  const { user, loading } = useSession();
  // The prerendered page shows the first sample; the visit then picks one at random (SPEC §2 "random example").
  const [exampleIndex, setExampleIndex] = useState(0);
  useEffect(() => setExampleIndex(Math.floor(Math.random() * samples.length)), [samples.length]);
  const example = samples[exampleIndex];

  useEffect(() => {
    if (!loading && user) navigate('/dashboard', { replace: true });
  }, [loading, user, navigate]);

  if (user) {
    return (
      <div className={styles.page}>
        <Spinner label="Opening your dashboard..." />
      </div>
    );
  }
  return (
    <article className={styles.page}>
      <header className={example ? styles.heroWithImage : styles.hero}>
        <div className={styles.heroText}>
          <h1 className={styles.headline}>{page.hero.headline}</h1>
          <p className={styles.lead}>{page.hero.lead}</p>
          <Button size="lg" onClick={requestSignIn}>
            Sign in with Google
          </Button>
          <p className={styles.credit}>
            By signing in you agree to our <a href="/terms">Terms of Service</a> and{' '}
            <a href="/privacy">Privacy Policy</a>.
          </p>
        </div>
        {example && <BeforeAfter sample={example} eager />}
      </header>
      {/* What signing in leads to, for visitors deciding whether to (and for search engines, which do not sign in). */}
      {page.sections.map((section, position) => (
        <Section key={`${section.kind}-${position}`} section={section} page={page} />
      ))}
    </article>
  );
}

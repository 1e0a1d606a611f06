import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '@productgen/platform-client';
import { getSiteName, requestSignIn, routeEntry, usePageMeta } from '@productgen/mf-shared';
import { Button, Spinner } from '@productgen/ui-kit';
import { assetUrl, EXAMPLE_PHOTOS, pickRandom, type ExamplePhoto } from './example-photos';
import styles from './LoginPage.module.css';

function BeforeAfterExample({ photo }: { photo: ExamplePhoto }) {
  const src = assetUrl(photo.file);
  return (
    <figure className={styles.example}>
      <div className={styles.pair}>
        <div className={styles.panel}>
          <span className={styles.badge}>Before</span>
          <img className={styles.before} src={src} alt={`Phone photo of a ${photo.product}`} />
        </div>
        <div className={`${styles.panel} ${styles.studio}`}>
          <span className={styles.badge}>After</span>
          <img className={styles.after} src={src} alt={`The ${photo.product} presented on a studio backdrop`} />
        </div>
      </div>
      <figcaption className={styles.credit}>Photo: {photo.credit}</figcaption>
    </figure>
  );
}

/** /login: the welcome page signed-out visitors are sent to; signed-in users go on to their dashboard. */
export function LoginPage({ examples = EXAMPLE_PHOTOS }: { examples?: readonly ExamplePhoto[] }) {
  const entry = routeEntry('/login');
  usePageMeta({ title: entry.title, description: entry.description, path: '/login' });
  const navigate = useNavigate();
  const { user, loading } = useSession();
  // Chosen once per visit, so the picture does not change while the session loads.
  const [example] = useState(() => pickRandom(examples));
  const productName = getSiteName();

  useEffect(() => {
    if (!loading && user) navigate('/dashboard', { replace: true });
  }, [loading, user, navigate]);

  if (user) {
    return (
      <div className={styles.redirecting}>
        <Spinner label="Opening your dashboard..." />
      </div>
    );
  }
  return (
    <section className={styles.page}>
      <div className={styles.welcome}>
        <h1 className={styles.title}>Welcome to {productName}</h1>
        <p className={styles.lead}>
          Sign in to turn ordinary phone photos of your products into professional product photos. New accounts get 10
          free images.
        </p>
        <Button size="lg" onClick={requestSignIn} disabled={loading}>
          Sign in with Google
        </Button>
        <p className={styles.terms}>
          By signing in you agree to our <a href="/terms">Terms of Service</a> and <a href="/privacy">Privacy Policy</a>
          .
        </p>
      </div>
      {example && <BeforeAfterExample photo={example} />}
    </section>
  );
}

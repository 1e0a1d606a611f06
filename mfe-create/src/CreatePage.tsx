import clsx from 'clsx';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { routeEntry, usePageMeta } from '@productgen/mf-shared';
import { useSession } from '@productgen/platform-client';
import { Button, Spinner } from '@productgen/ui-kit';
import { BatchScreen } from './batch/BatchScreen';
import { CreateLimitsProvider } from './shared/limits';
import { SingleImageScreen } from './single/SingleImageScreen';
import styles from './CreatePage.module.css';

export type CreateTab = 'single' | 'batch';

/** SPEC §2: #batch selects Batch Create; anything else (no fragment, #single) is Single Image. */
export function tabFromHash(hash: string): CreateTab {
  return hash === '#batch' ? 'batch' : 'single';
}

const TABS: readonly { id: CreateTab; label: string }[] = [
  { id: 'single', label: 'Single Image' },
  { id: 'batch', label: 'Batch Create' },
];

/** /productgen: the create screen with its Single Image and Batch Create tabs. */
export function CreatePage() {
  const entry = routeEntry('/productgen');
  const { pathname, hash } = useLocation();
  const navigate = useNavigate();
  const { user, loading, signedIn, error, refresh } = useSession();
  const [resetKey, setResetKey] = useState(0);
  const tab = tabFromHash(hash);
  usePageMeta({ title: entry.title, description: entry.description, path: pathname });

  // Visitors are sent to the landing page, but only once the session check has answered.
  useEffect(() => {
    if (!loading && !signedIn) navigate('/', { replace: true });
  }, [loading, signedIn, navigate]);

  let content;
  if (user) {
    content = (
      <CreateLimitsProvider>
        <div className={styles.panel} role="tabpanel" id="create-single" hidden={tab !== 'single'}>
          <SingleImageScreen resetKey={resetKey} />
        </div>
        {tab === 'batch' && (
          <div className={styles.panel} role="tabpanel" id="create-batch">
            <BatchScreen resetKey={resetKey} />
          </div>
        )}
      </CreateLimitsProvider>
    );
  } else if (!loading && signedIn && error) {
    content = (
      <div className={styles.status} role="alert">
        <p>Your account could not be loaded. Check your connection and try again.</p>
        <Button variant="secondary" onClick={refresh}>
          Try again
        </Button>
      </div>
    );
  } else {
    content = (
      <div className={styles.status}>
        <Spinner label="Loading your account..." />
      </div>
    );
  }

  return (
    <section className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>{entry.title}</h1>
        <p className={styles.lead}>Turn a phone photo of your product into professional, styled product photos.</p>
      </header>
      <div className={styles.tabRow}>
        <div className={styles.tabs} role="tablist" aria-label="Creation mode">
          {TABS.map(({ id, label }) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={tab === id}
              aria-controls={`create-${id}`}
              className={clsx(styles.tab, tab === id && styles.tabActive)}
              onClick={() => navigate(`/productgen#${id}`)}
            >
              {label}
            </button>
          ))}
        </div>
        {user && (
          <Button variant="ghost" size="sm" onClick={() => setResetKey((key) => key + 1)}>
            Start over
          </Button>
        )}
      </div>
      {content}
    </section>
  );
}

import { useState } from 'react';
import { errorText } from '@productgen/mf-shared';
import { Button } from '@productgen/ui-kit';
import styles from './remote-load-error.module.css';

export interface RemoteLoadErrorProps {
  error: unknown;
  /** Tries to load the page again; resolves when the attempt is over (success or a new error screen). */
  onRetry: () => Promise<void>;
}

/** Shown in place of a microfrontend that failed to load: never a blank page. */
export function RemoteLoadError({ error, onRetry }: RemoteLoadErrorProps) {
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    setRetrying(true);
    try {
      await onRetry();
    } finally {
      setRetrying(false);
    }
  };
  return (
    <section className={styles.screen} role="alert">
      <h1 className={styles.title}>Oops</h1>
      <p>This page could not be loaded. Check your connection and try again.</p>
      <p className={styles.detail}>{errorText(error).split('\n')[0]}</p>
      <Button onClick={retry} disabled={retrying}>
        {retrying ? 'Retrying...' : 'Retry'}
      </Button>
    </section>
  );
}

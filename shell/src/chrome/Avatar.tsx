import { useEffect, useState } from 'react';
import styles from './TopBar.module.css';

// SPEC §3: the avatar image is retried for up to 5 s at 500 ms intervals (provider avatars can lag sign-in).
const RETRY_INTERVAL_MS = 500;
const RETRY_WINDOW_MS = 5000;

export function Avatar({ name, picture }: { name: string; picture?: string }) {
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setAttempt(0);
    setFailed(false);
  }, [picture]);

  const initial = name.trim().charAt(0).toUpperCase() || '?';
  if (!picture || failed) {
    return (
      <span className={styles.avatarFallback} aria-hidden="true">
        {initial}
      </span>
    );
  }
  const onError = () => {
    if ((attempt + 1) * RETRY_INTERVAL_MS >= RETRY_WINDOW_MS) {
      setFailed(true);
      return;
    }
    setTimeout(() => setAttempt((current) => current + 1), RETRY_INTERVAL_MS);
  };
  // A changing key makes the browser request the image again.
  return (
    <img key={attempt} className={styles.avatar} src={picture} alt="" referrerPolicy="no-referrer" onError={onError} />
  );
}

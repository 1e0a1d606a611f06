// The create screens' messages: the red error box at the top (SPEC §8), the watermark notice and the site-URL tip.
import clsx from 'clsx';
import { useState, type ReactNode } from 'react';
import { isApiError, usePlatformClient } from '@productgen/platform-client';
import styles from './messages.module.css';

/** The tip key recorded when the site-URL tip is dismissed (SPEC §4). */
export const SITE_URL_TOOLTIP = 'enter_site_url';

// The client's wording for a non-OK answer that carried no message of its own: not worth showing a seller.
const GENERIC_FAILURE = /^Request failed with status \d+$/;

/** The server's own message for an API failure; null lets the screen use its SPEC fallback text. */
export function apiMessage(error: unknown): string | null {
  return isApiError(error) && error.error && !GENERIC_FAILURE.test(error.error) ? error.error : null;
}

export function ErrorBox({ message, onDismiss }: { message: string; onDismiss?: () => void }) {
  return (
    <div className={styles.errorBox} role="alert">
      <span>{message}</span>
      {onDismiss && (
        <button type="button" className={styles.close} aria-label="Dismiss error" onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}

export function Notice({
  tone,
  children,
  onDismiss,
}: {
  tone: 'info' | 'tip';
  children: ReactNode;
  onDismiss?: () => void;
}) {
  return (
    <div className={clsx(styles.notice, styles[tone])} role="note">
      <div className={styles.noticeText}>{children}</div>
      {onDismiss && (
        <button type="button" className={styles.close} aria-label="Dismiss tip" onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}

export function WatermarkNotice() {
  return (
    <Notice tone="info">
      Images made with free credits carry a watermark. Buying any credit package removes it from your new creations.{' '}
      <a href="/pricing">See packages</a>
    </Notice>
  );
}

/**
 * The site-URL tip for a user whose flag is set, once a creation has finished. Dismissing it records the tip key and
 * refetches the user, whose flag the server then clears.
 */
export function SiteUrlTip() {
  const client = usePlatformClient();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  const dismiss = () => {
    setDismissed(true);
    client
      .closeTooltip(SITE_URL_TOOLTIP)
      .then(() => client.refreshUser())
      // The tip is gone for this visit either way; the server will offer it again next time.
      .catch(() => undefined);
  };
  return (
    <Notice tone="tip" onDismiss={dismiss}>
      Tip: add your website URL in <a href="/settings">Settings</a> so new creations match the style of your shop.
    </Notice>
  );
}

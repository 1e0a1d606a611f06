import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { usePlatformClient, useSession, type User } from '@productgen/platform-client';
import { errorText, PageIntro, routeEntry } from '@productgen/mf-shared';
import { Button, Modal, Spinner } from '@productgen/ui-kit';
import styles from './SettingsPage.module.css';

/** SPEC §9: the success message disappears after 3 s. */
export const SAVED_MESSAGE_MS = 3000;

/** First and last name as the identity provider gave them, else split from the display name. */
export function namesOf(user: Pick<User, 'name' | 'given_name' | 'family_name'>): {
  firstName: string;
  lastName: string;
} {
  const given = typeof user.given_name === 'string' ? user.given_name : null;
  const family = typeof user.family_name === 'string' ? user.family_name : null;
  if (given !== null || family !== null) return { firstName: given ?? '', lastName: family ?? '' };
  const [firstName = '', ...rest] = (user.name ?? '').trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} readOnly />
    </div>
  );
}

function SettingsForm({ user }: { user: User }) {
  const client = usePlatformClient();
  const urlId = useId();
  const [siteUrl, setSiteUrl] = useState(user.site_url ?? '');
  const [saving, setSaving] = useState(false);
  const [savedCount, setSavedCount] = useState(0);
  const [showSaved, setShowSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { firstName, lastName } = namesOf(user);
  const shopContext = user.shop_context ?? [];

  useEffect(() => {
    if (savedCount === 0) return;
    setShowSaved(true);
    const timer = setTimeout(() => setShowSaved(false), SAVED_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [savedCount]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await client.saveSettings({ site_url: siteUrl.trim() });
      setSavedCount((count) => count + 1);
      // Every app showing the user (top bar, create screen tips) picks up the new settings.
      client.refreshUser();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className={styles.form} onSubmit={save}>
      <ReadOnlyField label="Email" value={user.email} />
      <div className={styles.row}>
        <ReadOnlyField label="First name" value={firstName} />
        <ReadOnlyField label="Last name" value={lastName} />
      </div>
      <div className={styles.field}>
        <label htmlFor={urlId}>Website URL</label>
        <input
          id={urlId}
          type="url"
          placeholder="https://your-shop.example"
          value={siteUrl}
          onChange={(event) => setSiteUrl(event.target.value)}
        />
      </div>
      <section className={styles.shopContext} aria-labelledby={`${urlId}-shop`}>
        <h2 id={`${urlId}-shop`} className={styles.subheading}>
          Shop context
        </h2>
        {shopContext.length > 0 ? (
          <ul className={styles.contextList}>
            {shopContext.map((entry) => (
              <li key={`${entry.category_id}:${entry.label}`}>{entry.label}</li>
            ))}
          </ul>
        ) : (
          <p className={styles.muted}>No shop context yet.</p>
        )}
      </section>
      <div className={styles.actions}>
        <Button type="submit" loading={saving}>
          Save Settings
        </Button>
        {showSaved && (
          <p className={styles.saved} role="status">
            Settings saved successfully!
          </p>
        )}
      </div>
      <Modal
        open={error !== null}
        onClose={() => setError(null)}
        title="Error"
        size="sm"
        footer={<Button onClick={() => setError(null)}>Close</Button>}
      >
        <p>{error}</p>
      </Modal>
    </form>
  );
}

export function SettingsPage() {
  const navigate = useNavigate();
  const { user, loading } = useSession();
  const entry = routeEntry('/settings');

  if (!user) {
    return (
      <PageIntro entry={entry}>
        {loading ? (
          <div className={styles.loading}>
            <Spinner label="Loading settings..." />
          </div>
        ) : (
          <div className={styles.prompt}>
            <p>Please log in to access settings</p>
            <Button onClick={() => navigate('/login')}>Go to Login</Button>
          </div>
        )}
      </PageIntro>
    );
  }
  return (
    <PageIntro entry={entry}>
      <SettingsForm user={user} />
    </PageIntro>
  );
}

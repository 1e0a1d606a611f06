import { useState, type FormEvent } from 'react';
import { usePlatformClient } from '@productgen/platform-client';
import { errorText } from '@productgen/mf-shared';
import { Button, Modal } from '@productgen/ui-kit';
import styles from './DevSignInDialog.module.css';

export interface DevSignInDialogProps {
  open: boolean;
  onClose: () => void;
  apiBaseUrl: string;
  fetchImpl?: typeof fetch;
}

/** Fetches an ID token from the embedded dev identity provider (refused by the API in production). */
export async function fetchDevCredential(
  apiBaseUrl: string,
  identity: { email: string; givenName: string; familyName: string },
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): Promise<string> {
  const query = new URLSearchParams({
    email: identity.email,
    given_name: identity.givenName,
    family_name: identity.familyName,
  });
  const response = await fetchImpl(`${apiBaseUrl}/dev-idp/credential?${query}`);
  const body: unknown = await response.json().catch(() => null);
  const credential = body && typeof body === 'object' && 'credential' in body ? body.credential : undefined;
  if (!response.ok || typeof credential !== 'string' || !credential) {
    const message =
      body && typeof body === 'object' && 'error' in body ? String(body.error) : `HTTP ${response.status}`;
    throw new Error(`The dev identity provider refused: ${message}`);
  }
  return credential;
}

/** Embedded mode's stand-in for Google's consent screen: who do you want to be? */
export function DevSignInDialog({ open, onClose, apiBaseUrl, fetchImpl }: DevSignInDialogProps) {
  const client = usePlatformClient();
  const [email, setEmail] = useState('');
  const [givenName, setGivenName] = useState('');
  const [familyName, setFamilyName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const credential = await fetchDevCredential(
        apiBaseUrl,
        { email: email.trim(), givenName: givenName.trim(), familyName: familyName.trim() },
        fetchImpl,
      );
      await client.signIn({ credential });
      onClose();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onClose={onClose} title="Sign in (development identity provider)" dismissible={!busy} size="sm">
      <form className={styles.form} onSubmit={submit}>
        <p className={styles.note}>This server runs in embedded mode: choose who to sign in as.</p>
        <label className={styles.field}>
          Email
          <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label className={styles.field}>
          Given name
          <input required value={givenName} onChange={(event) => setGivenName(event.target.value)} />
        </label>
        <label className={styles.field}>
          Family name
          <input required value={familyName} onChange={(event) => setFamilyName(event.target.value)} />
        </label>
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <Button type="submit" loading={busy} fullWidth>
          Sign in
        </Button>
      </form>
    </Modal>
  );
}

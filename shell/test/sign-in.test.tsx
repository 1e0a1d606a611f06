import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlatformProvider, type PlatformClient } from '@productgen/platform-client';
import { requestSignIn, type RuntimeConfig } from '@productgen/mf-shared';
import { fakeApiClient, TEST_API, TEST_USER } from '@productgen/mf-shared/test-support';
import { fetchDevCredential } from '../src/chrome/DevSignInDialog';
import { ShellConfigContext } from '../src/chrome/shell-config';
import { SignInProvider } from '../src/chrome/SignInProvider';

const DEV_CONFIG: RuntimeConfig = {
  apiBaseUrl: TEST_API,
  googleClientId: '',
  productName: 'ProductGen',
  devIdentityProvider: true,
  trackingScripts: {},
};

function credentialFetch(reply: { status: number; body: unknown }) {
  const urls: string[] = [];
  const fetchImpl = (async (url: string) => {
    urls.push(url);
    return { ok: reply.status < 300, status: reply.status, json: async () => reply.body };
  }) as unknown as typeof fetch;
  return { fetchImpl, urls };
}

describe('dev identity provider sign-in', () => {
  it('asks the dev IdP for a credential with the typed identity', async () => {
    const { fetchImpl, urls } = credentialFetch({ status: 200, body: { credential: 'id-token' } });
    const credential = await fetchDevCredential(
      TEST_API,
      { email: 'ada@example.com', givenName: 'Ada', familyName: 'Love lace' },
      fetchImpl,
    );
    expect(credential).toBe('id-token');
    expect(urls[0]).toBe(`${TEST_API}/dev-idp/credential?email=ada%40example.com&given_name=Ada&family_name=Love+lace`);
  });

  it('explains a refusal', async () => {
    const { fetchImpl } = credentialFetch({ status: 403, body: { code: 403, error: 'refused in production' } });
    await expect(
      fetchDevCredential(TEST_API, { email: 'a@b.c', givenName: 'A', familyName: 'B' }, fetchImpl),
    ).rejects.toThrow('The dev identity provider refused: refused in production');
  });

  it('opens the dialog on a sign-in request and signs in with the credential', async () => {
    const { client, requests } = fakeApiClient({
      'GET /auth/me': [{ status: 401 }, { body: TEST_USER }],
      'POST /auth/google': { body: { user: TEST_USER } },
    });
    const { fetchImpl } = credentialFetch({ status: 200, body: { credential: 'id-token' } });
    const originalFetch = globalThis.fetch;
    globalThis.fetch = fetchImpl;
    try {
      renderWithProvider(client);
      act(() => requestSignIn());
      await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
      await userEvent.type(screen.getByLabelText('Given name'), 'Ada');
      await userEvent.type(screen.getByLabelText('Family name'), 'Lovelace');
      await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const signIn = requests.find((request) => request.path === '/auth/google');
      expect(signIn?.json).toMatchObject({ credential: 'id-token', access_token: null });
      expect(client.isSignedIn()).toBe(true);
    } finally {
      globalThis.fetch = originalFetch;
    }
  });
});

function renderWithProvider(client: PlatformClient) {
  render(
    <ShellConfigContext.Provider value={DEV_CONFIG}>
      <PlatformProvider client={client}>
        <SignInProvider />
      </PlatformProvider>
    </ShellConfigContext.Provider>,
  );
}

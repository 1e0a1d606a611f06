import { useEffect, useState, type ReactNode } from 'react';
import { usePlatformClient } from '@productgen/platform-client';
import { onSignInRequest } from '@productgen/mf-shared';
import { requestGoogleAccessToken } from '../google-identity';
import { DevSignInDialog } from './DevSignInDialog';
import { useShellConfig } from './shell-config';

/**
 * Answers every "sign in" request of the page (top bar, /login, landing page CTAs): Google's token flow,
 * or in embedded mode the dev identity provider dialog. Sign-in errors of the button flow are ignored
 * silently (SPEC §8): the visitor simply stays signed out and can try again.
 */
export function SignInProvider({ children }: { children?: ReactNode }) {
  const config = useShellConfig();
  const client = usePlatformClient();
  const [devDialogOpen, setDevDialogOpen] = useState(false);

  useEffect(
    () =>
      onSignInRequest(() => {
        if (config.devIdentityProvider) {
          setDevDialogOpen(true);
          return;
        }
        requestGoogleAccessToken(config.googleClientId)
          .then((accessToken) => client.signIn({ access_token: accessToken }))
          .catch((error: unknown) => console.warn('Sign-in was not completed', error));
      }),
    [config, client],
  );

  return (
    <>
      {children}
      {config.devIdentityProvider && (
        <DevSignInDialog open={devDialogOpen} onClose={() => setDevDialogOpen(false)} apiBaseUrl={config.apiBaseUrl} />
      )}
    </>
  );
}

import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { usePlatformClient } from '@productgen/platform-client';
import { onSignInRequest } from '@productgen/mf-shared';
import { requestGoogleAccessToken } from '../google-identity';
import { useShellConfig } from './shell-config';

// Development only (never offered in production): its code, and the modal's, load when it first opens.
const DevSignInDialog = lazy(() => import('./DevSignInDialog').then((module) => ({ default: module.DevSignInDialog })));

/**
 * Answers every "sign in" request of the page (top bar, /login, landing page CTAs): Google's token flow,
 * or in embedded mode the dev identity provider dialog. Sign-in errors of the button flow are ignored
 * silently (SPEC §8): the visitor simply stays signed out and can try again.
 */
export function SignInProvider({ children }: { children?: ReactNode }) {
  const config = useShellConfig();
  const client = usePlatformClient();
  const [devDialogOpen, setDevDialogOpen] = useState(false);
  const [devDialogUsed, setDevDialogUsed] = useState(false);

  useEffect(
    () =>
      onSignInRequest(() => {
        if (config.devIdentityProvider) {
          setDevDialogUsed(true);
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
      {config.devIdentityProvider && devDialogUsed && (
        <Suspense fallback={null}>
          <DevSignInDialog
            open={devDialogOpen}
            onClose={() => setDevDialogOpen(false)}
            apiBaseUrl={config.apiBaseUrl}
          />
        </Suspense>
      )}
    </>
  );
}

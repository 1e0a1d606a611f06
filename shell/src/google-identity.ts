// Google Identity Services (https://accounts.google.com/gsi/client): the production sign-in provider.
// The top bar's "Join with Google" uses the token flow (scope openid profile email); the platform client
// exchanges the access token for a session at POST /auth/google.

const GIS_SCRIPT_URL = 'https://accounts.google.com/gsi/client';
const SIGN_IN_SCOPE = 'openid profile email';

interface TokenResponse {
  access_token?: string;
  error?: string;
  error_description?: string;
}

interface GoogleAccounts {
  oauth2: {
    initTokenClient(config: {
      client_id: string;
      scope: string;
      callback: (response: TokenResponse) => void;
      error_callback?: (error: { type?: string; message?: string }) => void;
    }): { requestAccessToken(): void };
  };
}

declare global {
  interface Window {
    google?: { accounts?: GoogleAccounts };
  }
}

let scriptLoad: Promise<GoogleAccounts> | null = null;

export function loadGoogleIdentityServices(): Promise<GoogleAccounts> {
  if (window.google?.accounts) return Promise.resolve(window.google.accounts);
  scriptLoad ??= new Promise<GoogleAccounts>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.onload = () =>
      window.google?.accounts ? resolve(window.google.accounts) : reject(new Error(`Failed to load ${GIS_SCRIPT_URL}`));
    script.onerror = () => {
      scriptLoad = null;
      script.remove();
      reject(new Error(`Failed to load ${GIS_SCRIPT_URL}`));
    };
    document.head.appendChild(script);
  });
  return scriptLoad;
}

/** Opens Google's consent popup and resolves with the access token. */
export async function requestGoogleAccessToken(clientId: string): Promise<string> {
  const accounts = await loadGoogleIdentityServices();
  return new Promise<string>((resolve, reject) => {
    const client = accounts.oauth2.initTokenClient({
      client_id: clientId,
      scope: SIGN_IN_SCOPE,
      callback: (response) =>
        response.access_token
          ? resolve(response.access_token)
          : reject(new Error(response.error_description ?? response.error ?? 'Google sign-in was not completed')),
      error_callback: (error) => reject(new Error(error.message ?? error.type ?? 'Google sign-in was not completed')),
    });
    client.requestAccessToken();
  });
}

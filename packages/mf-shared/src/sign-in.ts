// The shell owns the sign-in provider (Google Identity Services, or the dev identity provider in embedded
// mode). Microfrontends ask it to sign the visitor in through a DOM event, so they need no reference to
// the shell's code; the outcome reaches every app through the platform client's session.

export const SIGN_IN_REQUEST_EVENT = 'productgen:sign-in-request';

export function requestSignIn(): void {
  window.dispatchEvent(new CustomEvent(SIGN_IN_REQUEST_EVENT));
}

export function onSignInRequest(handler: () => void): () => void {
  window.addEventListener(SIGN_IN_REQUEST_EVENT, handler);
  return () => window.removeEventListener(SIGN_IN_REQUEST_EVENT, handler);
}

import { useSession } from '@productgen/platform-client';
import { requestSignIn } from '@productgen/mf-shared';
import { Button, LinkButton, type ButtonSize } from '@productgen/ui-kit';

// SPEC §2: a call to action leads signed-in sellers to the create screen and everyone else to /login. The
// session's server snapshot is "signed out", so a prerendered page hydrates with the signed-out target and then
// follows the real session.

export const SIGNED_OUT_LABEL = 'Get Started Free';

export function useCallToAction(signedInLabel = 'Create now'): { href: string; label: string } {
  const { signedIn } = useSession();
  return signedIn ? { href: '/productgen', label: signedInLabel } : { href: '/login', label: SIGNED_OUT_LABEL };
}

export function CallToAction({ signedInLabel, size = 'lg' }: { signedInLabel?: string; size?: ButtonSize }) {
  const { href, label } = useCallToAction(signedInLabel);
  return (
    <LinkButton href={href} size={size}>
      {label}
    </LinkButton>
  );
}

/** The sign-in button for visitors; the shell's sign-in provider answers the request. */
export function JoinButton({ size = 'lg' }: { size?: ButtonSize }) {
  return (
    <Button variant="secondary" size={size} onClick={requestSignIn}>
      Join with Google
    </Button>
  );
}

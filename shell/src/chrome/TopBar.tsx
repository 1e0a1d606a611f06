import { navigateToUrl } from 'single-spa';
import { useSession } from '@productgen/platform-client';
import { requestSignIn } from '@productgen/mf-shared';
import { Button, LinkButton, Menu } from '@productgen/ui-kit';
import { Avatar } from './Avatar';
import { FREE_TOOLS, PROFILE_LINKS, SIGNED_OUT_LINKS } from './nav-items';
import { useShellConfig } from './shell-config';
import styles from './TopBar.module.css';

function FreeToolsMenu() {
  return <Menu label="Free Tools" items={FREE_TOOLS.map((tool) => ({ label: tool.label, href: tool.href }))} />;
}

export function TopBar() {
  const { productName } = useShellConfig();
  const { user, signedIn, signOut } = useSession();

  const logout = async () => {
    await signOut();
    navigateToUrl('/');
  };

  return (
    <div className={styles.bar}>
      <a href="/" className={styles.logo} aria-label={`${productName} home`}>
        {productName}
      </a>
      <nav className={styles.nav} aria-label="Main">
        {signedIn ? (
          <>
            <a className={`${styles.link} ${styles.inProfileMenu}`} href="/dashboard">
              Dashboard
            </a>
            <FreeToolsMenu />
            <LinkButton href="/productgen" size="sm">
              Create Photo
            </LinkButton>
            <a className={styles.credits} href="/pricing" title="Buy credits">
              {user ? `${user.credits} ${user.credits === 1 ? 'credit' : 'credits'}` : '… credits'}
            </a>
            <Menu
              align="end"
              label={
                <span className={styles.profile}>
                  <Avatar name={user?.name ?? ''} picture={user?.picture} />
                  <span className={styles.profileName}>{user?.name || 'Account'}</span>
                </span>
              }
              items={[
                ...PROFILE_LINKS.map((link) => ({ label: link.label, href: link.href })),
                { label: 'Logout', onSelect: () => void logout() },
              ]}
            />
          </>
        ) : (
          <>
            {SIGNED_OUT_LINKS.map((link) => (
              <a key={link.href} className={styles.link} href={link.href}>
                {link.label}
              </a>
            ))}
            <FreeToolsMenu />
            <Button variant="secondary" size="sm" onClick={requestSignIn}>
              Join with Google
            </Button>
            <LinkButton href="/login" size="sm">
              Start Free
            </LinkButton>
          </>
        )}
      </nav>
    </div>
  );
}

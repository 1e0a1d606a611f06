import { useId, type ReactNode } from 'react';
import { navigateToUrl } from 'single-spa';
import { useSession, type User } from '@productgen/platform-client';
import { requestSignIn } from '@productgen/mf-shared';
import { Button, LinkButton, Menu } from '@productgen/ui-kit';
import { Avatar } from './Avatar';
import { CompactMenu } from './CompactMenu';
import { FREE_TOOLS, PROFILE_LINKS, SIGNED_OUT_LINKS, type NavLink } from './nav-items';
import { useShellConfig } from './shell-config';
import styles from './TopBar.module.css';

const DASHBOARD: NavLink = { label: 'Dashboard', href: '/dashboard' };
// The phone menu lists Dashboard first, so its account group leaves the duplicate out.
const ACCOUNT_LINKS = PROFILE_LINKS.filter((link) => link.href !== DASHBOARD.href);

function FreeToolsMenu() {
  return <Menu label="Free Tools" items={FREE_TOOLS.map((tool) => ({ label: tool.label, href: tool.href }))} />;
}

function CreditsLink({ user }: { user: User | null }) {
  return (
    <a className={styles.credits} href="/pricing" title="Buy credits">
      {user ? `${user.credits} ${user.credits === 1 ? 'credit' : 'credits'}` : '… credits'}
    </a>
  );
}

function StartFreeLink() {
  return (
    <LinkButton href="/login" size="sm">
      Start Free
    </LinkButton>
  );
}

function JoinWithGoogleButton({ onClick }: { onClick?: () => void }) {
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => {
        onClick?.();
        requestSignIn();
      }}
    >
      Join with Google
    </Button>
  );
}

/** Links of the phone menu as a list; `children` adds further list items. */
function PanelLinks({ links, children }: { links: readonly NavLink[]; children?: ReactNode }) {
  return (
    <ul className={styles.panelList}>
      {links.map((link) => (
        <li key={link.href}>
          <a className={styles.panelLink} href={link.href}>
            {link.label}
          </a>
        </li>
      ))}
      {children}
    </ul>
  );
}

/** A titled group of the phone menu, named by its title for assistive technology. */
function PanelGroup({ title, links, children }: { title: string; links: readonly NavLink[]; children?: ReactNode }) {
  const titleId = useId();
  return (
    <div className={styles.panelGroup} role="group" aria-labelledby={titleId}>
      <p id={titleId} className={styles.panelTitle}>
        {title}
      </p>
      <PanelLinks links={links}>{children}</PanelLinks>
    </div>
  );
}

interface CompactMenuItemsProps {
  signedIn: boolean;
  user: User | null;
  close: () => void;
  logout: () => Promise<void>;
}

/** Everything of the desktop bar that the phone bar has no room for, as plain lists (no nested menus). */
function CompactMenuItems({ signedIn, user, close, logout }: CompactMenuItemsProps) {
  if (!signedIn) {
    return (
      <>
        <PanelLinks links={SIGNED_OUT_LINKS} />
        <PanelGroup title="Free Tools" links={FREE_TOOLS} />
        <div className={styles.panelActions}>
          <JoinWithGoogleButton onClick={close} />
        </div>
      </>
    );
  }
  return (
    <>
      <div className={styles.panelActions}>
        <a className={styles.panelLink} href={DASHBOARD.href}>
          {DASHBOARD.label}
        </a>
        <LinkButton href="/productgen" size="sm">
          Create Photo
        </LinkButton>
      </div>
      <PanelGroup title="Free Tools" links={FREE_TOOLS} />
      <PanelGroup title={user?.name || 'Account'} links={ACCOUNT_LINKS}>
        <li>
          <button
            type="button"
            className={styles.panelLink}
            onClick={() => {
              close();
              void logout();
            }}
          >
            Logout
          </button>
        </li>
      </PanelGroup>
    </>
  );
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
            <a className={styles.link} href={DASHBOARD.href}>
              {DASHBOARD.label}
            </a>
            <FreeToolsMenu />
            <LinkButton href="/productgen" size="sm">
              Create Photo
            </LinkButton>
            <CreditsLink user={user} />
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
            <JoinWithGoogleButton />
            <StartFreeLink />
          </>
        )}
      </nav>

      <div className={styles.compactBar}>
        {signedIn ? <CreditsLink user={user} /> : <StartFreeLink />}
        <CompactMenu>
          {(close) => <CompactMenuItems signedIn={signedIn} user={user} close={close} logout={logout} />}
        </CompactMenu>
      </div>
    </div>
  );
}

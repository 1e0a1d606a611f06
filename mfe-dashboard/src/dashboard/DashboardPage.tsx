import { useLocation, useNavigate } from 'react-router';
import { usePaymentReturnRefresh, useSession } from '@productgen/platform-client';
import { routeEntry, usePageMeta } from '@productgen/mf-shared';
import { Button, Spinner } from '@productgen/ui-kit';
import { CreditsLog } from './CreditsLog';
import { StatCards } from './StatCards';
import styles from './DashboardPage.module.css';

const entry = routeEntry('/dashboard');

/** The page's address as the router sees it, absolute (the payment-return check reads its query). */
function useCurrentUrl(): string {
  const { pathname, search } = useLocation();
  return new URL(`${pathname}${search}`, window.location.origin).href;
}

export function DashboardPage() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { user, loading } = useSession();
  const url = useCurrentUrl();
  usePageMeta({ title: entry.title, description: entry.description, path: pathname });
  // SPEC §4: on ?payment=success, a Paid event, the payment check, and auth-refresh every 4 s for 12 s. It starts
  // before the user has loaded so the first refresh is not delayed; the credit log follows the balance it brings.
  usePaymentReturnRefresh({ url });

  if (!user) {
    return (
      <section className={styles.page}>
        <h1 className={styles.title}>{entry.title}</h1>
        {loading ? (
          <Spinner label="Loading dashboard..." />
        ) : (
          <div className={styles.prompt}>
            <p>Please log in to see your dashboard</p>
            <Button onClick={() => navigate('/login')}>Go to Login</Button>
          </div>
        )}
      </section>
    );
  }
  return (
    <section className={styles.page}>
      <h1 className={styles.title}>Welcome back, {user.name || user.email}</h1>
      <StatCards />
      <CreditsLog />
    </section>
  );
}

import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '@productgen/platform-client';
import { routeEntry, usePageMeta } from '@productgen/mf-shared';
import { Button, Spinner } from '@productgen/ui-kit';
import { BatchJobsInProgress } from './BatchJobsInProgress';
import { CreditsLog } from './CreditsLog';
import { GenerationDetails } from './GenerationDetails';
import { PastCreations } from './PastCreations';
import { RecentlyCreated } from './RecentlyCreated';
import { RefundDialog } from './RefundDialog';
import { ReferralDialog } from './ReferralDialog';
import { StatCards } from './StatCards';
import { usePaymentReturn } from './usePaymentReturn';
import { useRecords } from './useRecords';
import styles from './DashboardPage.module.css';

const entry = routeEntry('/dashboard');

export function DashboardPage() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { user, loading } = useSession();
  usePageMeta({ title: entry.title, description: entry.description, path: pathname });
  // SPEC §4: on ?payment=success, a Paid event, the payment check, auth-refresh every 4 s for 12 s, then the
  // referral survey. It starts before the user has loaded so the first refresh is not delayed.
  const { surveyOpen, closeSurvey } = usePaymentReturn(!!user);
  // A batch that finishes changes its Past Creations row (status, thumbnail) without changing the balance.
  const [recordsVersion, setRecordsVersion] = useState(0);
  const records = useRecords(recordsVersion);
  const [refundFor, setRefundFor] = useState<string | null>(null);

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
      <StatCards records={records} />
      <div className={styles.sections}>
        <BatchJobsInProgress onAllFinished={() => setRecordsVersion((version) => version + 1)} />
        <RecentlyCreated records={records} />
        <PastCreations records={records} onRequestRefund={setRefundFor} />
        <CreditsLog />
      </div>
      <GenerationDetails />
      <RefundDialog generationUuid={refundFor} onClose={() => setRefundFor(null)} />
      <ReferralDialog open={surveyOpen} onDone={closeSurvey} />
    </section>
  );
}

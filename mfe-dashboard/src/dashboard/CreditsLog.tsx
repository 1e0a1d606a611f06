import { useEffect, useState } from 'react';
import { usePlatformClient, useCredits, type CreditRecord, type Page } from '@productgen/platform-client';
import { Spinner, Table, type TableColumn } from '@productgen/ui-kit';
import { formatLogDate, shortGenerationId, signedAmount } from './credit-format';
import styles from './DashboardPage.module.css';

/** SPEC §9: the credit log shows 10 entries per page. */
export const CREDIT_LOG_PAGE_SIZE = 10;
/** SPEC §8: shown in red in place of the table. */
export const FETCH_ERROR_TEXT = 'An error occurred while fetching data';

const columns: TableColumn<CreditRecord>[] = [
  { key: 'date', header: 'Date', render: (record) => formatLogDate(record.created_at) },
  { key: 'description', header: 'Description' },
  {
    key: 'generation',
    header: 'Generation ID',
    render: (record) => <span className={styles.mono}>{shortGenerationId(record.generation_id)}</span>,
  },
  {
    key: 'amount',
    header: 'Amount',
    render: (record) => (
      <span className={record.transaction_type === 'decrease' ? styles.debit : styles.credit}>
        {signedAmount(record)}
      </span>
    ),
  },
  { key: 'balance', header: 'Balance', render: (record) => record.balance_after },
];

type LogState = { status: 'loading' } | { status: 'failed' } | { status: 'loaded'; log: Page<CreditRecord> };

/**
 * The Credits Log table, paged by the server. It refetches whenever the user's balance changes, so a purchase
 * picked up by the post-payment refresh (or an image charged in another tab) appears without a reload.
 */
export function CreditsLog() {
  const client = usePlatformClient();
  const credits = useCredits();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<LogState>({ status: 'loading' });

  useEffect(() => {
    if (credits === null) return;
    let current = true;
    client.creditLog(page, CREDIT_LOG_PAGE_SIZE).then(
      (log) => current && setState({ status: 'loaded', log }),
      () => current && setState({ status: 'failed' }),
    );
    // A slower answer for an earlier page or balance must not overwrite the newer one.
    return () => {
      current = false;
    };
  }, [client, page, credits]);

  return (
    <section className={styles.section} aria-labelledby="credits-log-heading">
      <h2 id="credits-log-heading" className={styles.sectionTitle}>
        Credits Log
      </h2>
      {state.status === 'loading' && <Spinner label="Loading credits log..." />}
      {state.status === 'failed' && (
        <p className={styles.error} role="alert">
          {FETCH_ERROR_TEXT}
        </p>
      )}
      {state.status === 'loaded' && (
        <Table
          columns={columns}
          rows={state.log.items}
          rowKey={(record) => record.id}
          pageSize={CREDIT_LOG_PAGE_SIZE}
          serverPaging={{ page, totalRows: state.log.total, onPageChange: setPage }}
          emptyMessage="No credit activity yet."
        />
      )}
    </section>
  );
}

import { Link, useNavigate } from 'react-router';
import { useCredits, type RecordItem } from '@productgen/platform-client';
import { Menu, Spinner, Table, type TableColumn } from '@productgen/ui-kit';
import { formatLogDate } from './credit-format';
import { FETCH_ERROR_TEXT } from './CreditsLog';
import { detailsPath, type RecordsState } from './useRecords';
import styles from './DashboardPage.module.css';

/** SPEC §9: Past Creations shows 10 rows per page. */
export const PAST_CREATIONS_PAGE_SIZE = 10;

export interface PastCreationsProps {
  records: RecordsState;
  /** Opens the refund dialog for a single generation. */
  onRequestRefund: (generationUuid: string) => void;
}

/** SPEC §4: with no creations, a way to make the first one (or to buy the credits for it). */
function EmptyCreations() {
  const credits = useCredits();
  return (credits ?? 0) > 0 ? (
    <Link to="/productgen">Try one?</Link>
  ) : (
    <Link to="/pricing">Get credits and create one!</Link>
  );
}

export function PastCreations({ records, onRequestRefund }: PastCreationsProps) {
  const navigate = useNavigate();
  const columns: TableColumn<RecordItem>[] = [
    { key: 'category', header: 'Category', render: (record) => record.category ?? '—' },
    { key: 'num_images', header: 'Images' },
    { key: 'created', header: 'Created', render: (record) => formatLogDate(record.created_at) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'end',
      render: (record) => (
        <Menu
          label="Actions"
          align="end"
          size="sm"
          items={[
            { label: 'See Details', onSelect: () => navigate(detailsPath(record)) },
            // SPEC §4: a batch row has only See Details.
            ...(record.type === 'single'
              ? [{ label: 'Request Refund', onSelect: () => onRequestRefund(record.id) }]
              : []),
          ]}
        />
      ),
    },
  ];

  return (
    <section className={styles.section} aria-labelledby="past-creations-heading">
      <h2 id="past-creations-heading" className={styles.sectionTitle}>
        Past Creations
      </h2>
      {records.status === 'loading' && <Spinner label="Loading creations..." />}
      {records.status === 'failed' && (
        <p className={styles.error} role="alert">
          {FETCH_ERROR_TEXT}
        </p>
      )}
      {records.status === 'loaded' &&
        (records.records.length === 0 ? (
          <EmptyCreations />
        ) : (
          <Table
            columns={columns}
            rows={records.records}
            rowKey={(record) => `${record.type}-${record.id}`}
            pageSize={PAST_CREATIONS_PAGE_SIZE}
          />
        ))}
    </section>
  );
}

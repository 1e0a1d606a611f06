import { Link } from 'react-router';
import { usePlatformClient } from '@productgen/platform-client';
import { formatLogDate } from './credit-format';
import { detailsPath, type RecordsState } from './useRecords';
import styles from './DashboardPage.module.css';

/** SPEC §9: the 3 newest creations. */
export const RECENTLY_CREATED_COUNT = 3;

/** Image cards of the newest creations, each linking to its details; nothing while loading or when there are none. */
export function RecentlyCreated({ records }: { records: RecordsState }) {
  const client = usePlatformClient();
  if (records.status !== 'loaded' || records.records.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby="recently-created-heading">
      <h2 id="recently-created-heading" className={styles.sectionTitle}>
        Recently Created
      </h2>
      <ul className={styles.cards}>
        {records.records.slice(0, RECENTLY_CREATED_COUNT).map((record) => {
          const label = `${record.category ?? 'Creation'}, ${formatLogDate(record.created_at)}`;
          return (
            <li key={`${record.type}-${record.id}`} className={styles.card}>
              <Link to={detailsPath(record)} className={styles.cardLink}>
                {record.thumbnail_url ? (
                  <img src={client.assetUrl(record.thumbnail_url)} alt={label} className={styles.cardImage} />
                ) : (
                  <span className={styles.cardImage} aria-hidden="true" />
                )}
                <span>{label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

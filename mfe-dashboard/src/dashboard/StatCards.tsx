import { useCredits } from '@productgen/platform-client';
import type { RecordsState } from './useRecords';
import styles from './DashboardPage.module.css';

export interface CreationTotals {
  creationSets: number;
  images: number;
}

function imageCount(record: unknown): number {
  const images = (record as { num_images?: unknown } | null)?.num_images;
  return typeof images === 'number' && Number.isFinite(images) && images > 0 ? images : 0;
}

/** Creation sets (single generations and batch jobs) and their images, from the GET /records list. */
export function creationTotals(records: readonly unknown[]): CreationTotals {
  return { creationSets: records.length, images: records.reduce<number>((sum, record) => sum + imageCount(record), 0) };
}

function StatCard({ label, value }: { label: string; value: number | string }) {
  return (
    <li className={styles.statCard}>
      <span className={styles.statLabel}>{label}</span>
      <strong className={styles.statValue}>{value}</strong>
    </li>
  );
}

/**
 * The stat cards: Creation Sets and Images come from the generation records and are left out when those
 * cannot be fetched (the rest of the dashboard is still useful); Credits Available follows the session.
 */
export function StatCards({ records }: { records: RecordsState }) {
  const credits = useCredits();
  const totals = records.status === 'loaded' ? creationTotals(records.records) : null;

  return (
    <ul className={styles.stats} aria-label="Account summary">
      {totals && <StatCard label="Creation Sets" value={totals.creationSets} />}
      {totals && <StatCard label="Images" value={totals.images} />}
      <StatCard label="Credits Available" value={credits ?? '…'} />
    </ul>
  );
}

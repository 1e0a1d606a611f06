import clsx from 'clsx';
import { Button } from './Button';
import styles from './Pagination.module.css';

export interface PaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** Names the navigation landmark when a page has several paginated lists. */
  label?: string;
  className?: string;
}

/** Previous / "Page x of y" / Next. */
export function Pagination({ page, pageCount, onPageChange, label = 'Pagination', className }: PaginationProps) {
  const pages = Math.max(1, pageCount);
  const current = Math.min(Math.max(1, page), pages);
  return (
    <nav className={clsx(styles.pagination, className)} aria-label={label}>
      <Button variant="secondary" size="sm" disabled={current <= 1} onClick={() => onPageChange(current - 1)}>
        Previous
      </Button>
      <span aria-live="polite">
        Page {current} of {pages}
      </span>
      <Button variant="secondary" size="sm" disabled={current >= pages} onClick={() => onPageChange(current + 1)}>
        Next
      </Button>
    </nav>
  );
}

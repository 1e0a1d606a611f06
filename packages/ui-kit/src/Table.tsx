import clsx from 'clsx';
import { useState, type Key, type ReactNode } from 'react';
import { Pagination } from './Pagination';
import styles from './Table.module.css';

export interface TableColumn<Row> {
  key: string;
  header: ReactNode;
  /** Cell content; defaults to the row's field named `key`. */
  render?: (row: Row) => ReactNode;
  align?: 'start' | 'end';
}

/** Pass these when the server pages the data (e.g. `{items, total}` answers); omit them to page locally. */
export interface ServerPaging {
  page: number;
  totalRows: number;
  onPageChange: (page: number) => void;
}

export interface TableProps<Row> {
  columns: TableColumn<Row>[];
  /** All rows (local paging) or the current page's rows (server paging). */
  rows: Row[];
  rowKey: (row: Row) => Key;
  pageSize?: number;
  serverPaging?: ServerPaging;
  caption?: ReactNode;
  emptyMessage?: ReactNode;
  className?: string;
}

export const DEFAULT_PAGE_SIZE = 10;

export function Table<Row>({
  columns,
  rows,
  rowKey,
  pageSize = DEFAULT_PAGE_SIZE,
  serverPaging,
  caption,
  emptyMessage = 'Nothing here yet.',
  className,
}: TableProps<Row>) {
  const [localPage, setLocalPage] = useState(1);
  const size = Math.max(1, Math.floor(pageSize));
  const totalRows = serverPaging ? serverPaging.totalRows : rows.length;
  const pageCount = Math.max(1, Math.ceil(totalRows / size));
  // Clamp so a shrinking data set (e.g. after a delete) never leaves the table on an empty page.
  const page = Math.min(Math.max(1, serverPaging ? serverPaging.page : localPage), pageCount);
  const visibleRows = serverPaging ? rows : rows.slice((page - 1) * size, page * size);

  return (
    <div className={className}>
      <div className={styles.wrapper}>
        <table className={styles.table}>
          {caption && <caption className={styles.caption}>{caption}</caption>}
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" className={clsx(column.align === 'end' && styles.alignEnd)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {visibleRows.length === 0 ? (
              <tr>
                <td className={styles.empty} colSpan={columns.length}>
                  {emptyMessage}
                </td>
              </tr>
            ) : (
              visibleRows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.key} className={clsx(column.align === 'end' && styles.alignEnd)}>
                      {column.render ? column.render(row) : cellValue(row, column.key)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pageCount > 1 && (
        <Pagination page={page} pageCount={pageCount} onPageChange={serverPaging?.onPageChange ?? setLocalPage} />
      )}
    </div>
  );
}

function cellValue(row: unknown, key: string): ReactNode {
  const value = (row as Record<string, unknown>)[key];
  return value === null || value === undefined ? '' : String(value);
}

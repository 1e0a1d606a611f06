import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Table, type TableColumn } from '@productgen/ui-kit';

interface CreditRow {
  id: number;
  description: string;
  amount: number;
}

const rows: CreditRow[] = Array.from({ length: 23 }, (_, index) => ({
  id: index + 1,
  description: `Entry ${index + 1}`,
  amount: index + 1,
}));
const columns: TableColumn<CreditRow>[] = [
  { key: 'description', header: 'Description' },
  { key: 'amount', header: 'Amount', align: 'end', render: (row) => `+${row.amount}` },
];

function bodyRowTexts(): string[] {
  const [, body] = screen.getAllByRole('rowgroup');
  return within(body!)
    .getAllByRole('row')
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent ?? '');
}

describe('Table paging', () => {
  it('shows 10 rows per page by default and pages with Previous and Next', async () => {
    const user = userEvent.setup();
    render(<Table columns={columns} rows={rows} rowKey={(row) => row.id} caption="Credit log" />);

    expect(screen.getByRole('table', { name: 'Credit log' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Description', 'Amount']);
    expect(bodyRowTexts()).toEqual(rows.slice(0, 10).map((row) => row.description));
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('cell', { name: '+1' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(bodyRowTexts()[0]).toBe('Entry 11');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(bodyRowTexts()).toEqual(['Entry 21', 'Entry 22', 'Entry 23']);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('honours the page size prop and hides paging for a single page', () => {
    const { rerender } = render(<Table columns={columns} rows={rows} rowKey={(row) => row.id} pageSize={5} />);
    expect(bodyRowTexts()).toHaveLength(5);
    expect(screen.getByText('Page 1 of 5')).toBeInTheDocument();

    rerender(<Table columns={columns} rows={rows.slice(0, 4)} rowKey={(row) => row.id} pageSize={5} />);
    expect(bodyRowTexts()).toHaveLength(4);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('shows the empty message when there are no rows', () => {
    render(<Table columns={columns} rows={[]} rowKey={(row) => row.id} emptyMessage="No credits used yet" />);
    expect(screen.getByRole('cell', { name: 'No credits used yet' })).toBeInTheDocument();
  });

  it('leaves paging to the server when serverPaging is given', async () => {
    const user = userEvent.setup();
    const requestedPages: number[] = [];
    function ServerTable() {
      const [page, setPage] = useState(1);
      const pageRows = rows.slice((page - 1) * 10, page * 10);
      return (
        <Table
          columns={columns}
          rows={pageRows}
          rowKey={(row) => row.id}
          serverPaging={{
            page,
            totalRows: rows.length,
            onPageChange: (next) => {
              requestedPages.push(next);
              setPage(next);
            },
          }}
        />
      );
    }
    render(<ServerTable />);

    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(requestedPages).toEqual([2]);
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(bodyRowTexts()[0]).toBe('Entry 11');
  });
});

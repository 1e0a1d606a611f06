import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mfeRouteTree } from '@productgen/mf-shared';
import { fakeApiClient, NEVER, renderAt, TEST_USER, type FakeRoute } from '@productgen/mf-shared/test-support';
import type { RecordItem } from '@productgen/platform-client';
import { routes } from '../src/routes';
import { PAST_CREATIONS_PAGE_SIZE } from '../src/dashboard/PastCreations';
import { RECENTLY_CREATED_COUNT } from '../src/dashboard/RecentlyCreated';
import { detailsPath } from '../src/dashboard/useRecords';

const uuid = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/** Newest first, as GET /records answers; every third one a batch. */
function recordAt(index: number): RecordItem {
  return {
    type: index % 3 === 2 ? 'bulk' : 'single',
    id: uuid(index),
    status: 'completed',
    // Not a real category id: a text of its own per row shows the rows' order (the table shows any id as it is).
    category: `category-${index}` as RecordItem['category'],
    num_images: index + 1,
    created_at: new Date(Date.UTC(2025, 5, 20 - index, 12)).toISOString(),
    thumbnail_url: `/download/${uuid(index)}/image/0`,
  };
}

function renderDashboard(records: FakeRoute, credits = 9) {
  const api = fakeApiClient(
    {
      'GET /auth/me': { body: { ...TEST_USER, credits } },
      'GET /records': records,
      'GET /credits/log': { body: { items: [], total: 0 } },
      [`GET /image-gen/generated/${uuid(0)}`]: NEVER,
    },
    { signedIn: true },
  );
  renderAt(mfeRouteTree(routes), '/dashboard', api.client);
  return api;
}

const pastCreations = () => screen.getByRole('region', { name: 'Past Creations' });
const bodyRows = () => within(pastCreations()).getAllByRole('row').slice(1);
const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .slice(0, 2)
    .map((cell) => cell.textContent);

describe('/dashboard creations', () => {
  it('links a single creation to its details in the dashboard and a batch to its job page', () => {
    expect(detailsPath({ type: 'single', id: 'a b' })).toBe('/dashboard?generation=a%20b');
    expect(detailsPath({ type: 'bulk', id: uuid(2) })).toBe(`/job/${uuid(2)}`);
  });

  it('shows a loading state until the records arrive', async () => {
    renderDashboard(NEVER);
    expect(await screen.findByRole('status', { name: 'Loading creations...' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Recently Created' })).not.toBeInTheDocument();
  });

  it('shows the 3 newest as Recently Created cards linking to their details', async () => {
    renderDashboard({ body: { records: [0, 1, 2, 3].map(recordAt) } });
    const recent = await screen.findByRole('region', { name: 'Recently Created' });
    const links = within(recent).getAllByRole('link');
    expect(links).toHaveLength(RECENTLY_CREATED_COUNT);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      `/dashboard?generation=${uuid(0)}`,
      `/dashboard?generation=${uuid(1)}`,
      `/job/${uuid(2)}`,
    ]);
    expect(within(links[0] as HTMLElement).getByRole('img')).toHaveAttribute(
      'src',
      `https://api.productgen.test/download/${uuid(0)}/image/0`,
    );
  });

  it('lists Category, Images, Created and Actions, 10 rows a page, with paging', async () => {
    const user = userEvent.setup();
    renderDashboard({ body: { records: Array.from({ length: 12 }, (_, index) => recordAt(index)) } });
    await within(await screen.findByRole('region', { name: 'Past Creations' })).findByRole('table');
    expect(
      within(pastCreations())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Category', 'Images', 'Created', 'Actions']);
    expect(bodyRows()).toHaveLength(PAST_CREATIONS_PAGE_SIZE);
    expect(cellTexts(bodyRows()[0] as HTMLElement)).toEqual(['category-0', '1']);
    await user.click(within(pastCreations()).getByRole('button', { name: /next/i }));
    expect(bodyRows().map((row) => cellTexts(row))).toEqual([
      ['category-10', '11'],
      ['category-11', '12'],
    ]);
  });

  it('offers See Details and Request Refund on a single row, only See Details on a batch row', async () => {
    const user = userEvent.setup();
    renderDashboard({ body: { records: [0, 1, 2].map(recordAt) } });
    await within(await screen.findByRole('region', { name: 'Past Creations' })).findByRole('table');
    const [single, , batch] = bodyRows() as HTMLElement[];
    await user.click(within(batch as HTMLElement).getByRole('button', { name: 'Actions' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['See Details']);
    await user.keyboard('{Escape}');
    await user.click(within(single as HTMLElement).getByRole('button', { name: 'Actions' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['See Details', 'Request Refund']);
    await user.click(screen.getByRole('menuitem', { name: 'Request Refund' }));
    expect(await screen.findByRole('dialog', { name: 'Request Refund' })).toBeInTheDocument();
  });

  it('offers "Try one?" with credits and "Get credits and create one!" without', async () => {
    renderDashboard({ body: { records: [] } });
    expect(await screen.findByRole('link', { name: 'Try one?' })).toHaveAttribute('href', '/productgen');
    expect(screen.queryByRole('region', { name: 'Recently Created' })).not.toBeInTheDocument();
  });

  it('sends a user without credits to /pricing from the empty state', async () => {
    renderDashboard({ body: { records: [] } }, 0);
    expect(await screen.findByRole('link', { name: 'Get credits and create one!' })).toHaveAttribute(
      'href',
      '/pricing',
    );
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Try one?' })).not.toBeInTheDocument());
  });
});

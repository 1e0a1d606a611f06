import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mfeRouteTree } from '@productgen/mf-shared';
import { fakeApiClient, NEVER, renderAt, TEST_USER, type FakeRoute } from '@productgen/mf-shared/test-support';
import { routes } from '../src/routes';

const UUID = '5f2b7c1e-8d3a-4e6f-9b0c-1a2d3e4fab12';
const API = 'https://api.productgen.test';
const DETAIL = {
  body: {
    id: 'gen-1',
    generation_uuid: UUID,
    created_at: '2025-06-01T12:00:00.000Z',
    images: [0, 1].map((index) => ({
      id: `image-${index}`,
      input_url: '/download/original.png',
      output_url: `/download/${UUID}/image/${index}`,
      metadata: { fixes_done: [true] },
    })),
    metadata: { category: 'mug', num_images: 2, status: 'completed', error: null },
    original_image_url: `/download/${UUID}/image/-1`,
    original_filename: null,
  },
};

function renderDetails(detail: FakeRoute) {
  const api = fakeApiClient(
    {
      'GET /auth/me': { body: TEST_USER },
      'GET /records': { body: { records: [] } },
      'GET /credits/log': { body: { items: [], total: 0 } },
      [`GET /image-gen/generated/${UUID}`]: detail,
    },
    { signedIn: true },
  );
  renderAt(mfeRouteTree(routes), `/dashboard?generation=${UUID}`, api.client);
  return api;
}

describe('/dashboard?generation={uuid}', () => {
  it('shows a loading state', async () => {
    renderDetails(NEVER);
    const dialog = await screen.findByRole('dialog', { name: 'Generation details' });
    expect(within(dialog).getByRole('status', { name: 'Loading details...' })).toBeInTheDocument();
  });

  it('shows the original and every created image with download and full-size links, and closes', async () => {
    const user = userEvent.setup();
    renderDetails(DETAIL);
    const dialog = await screen.findByRole('dialog', { name: 'Generation details' });
    await within(dialog).findByRole('img', { name: 'Original' });
    expect(
      within(dialog)
        .getAllByRole('img')
        .map((img) => img.getAttribute('alt')),
    ).toEqual(['Original', 'Created image 1', 'Created image 2']);
    expect(
      within(dialog)
        .getAllByRole('link', { name: /^Download/ })
        .map((link) => link.getAttribute('href')),
    ).toEqual([-1, 0, 1].map((index) => `${API}/download/${UUID}/image/${index}`));

    // The full-size viewer opens over the details at the chosen image and moves with the arrow keys.
    await user.click(within(dialog).getByRole('button', { name: /^View full size.*Created image 1$/ }));
    const viewer = await screen.findByRole('dialog', { name: 'Created image 1' });
    expect(within(viewer).getByRole('img', { name: 'Created image 1' })).toHaveAttribute(
      'src',
      `${API}/download/${UUID}/image/0`,
    );
    expect(within(viewer).getByText('2 / 3')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    const next = await screen.findByRole('dialog', { name: 'Created image 2' });
    expect(within(next).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      `${API}/download/${UUID}/image/1`,
    );
    expect(within(next).getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    await screen.findByRole('dialog', { name: 'Original' });
    // Escape closes the viewer only; the details stay open.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(1));
    expect(screen.getByRole('dialog', { name: 'Generation details' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the fetch error when the generation cannot be loaded', async () => {
    renderDetails({ status: 404, body: { code: 404, error: 'Generation not found' } });
    const dialog = await screen.findByRole('dialog', { name: 'Generation details' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('An error occurred while fetching data');
  });
});

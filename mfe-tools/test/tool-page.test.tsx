import { screen } from '@testing-library/react';
import { fakeApiClient, renderAt, TEST_USER } from '@productgen/mf-shared/test-support';
import { mfeRouteTree } from '@productgen/mf-shared';
import { routes } from '../src/routes';

describe('the free tools’ shared page', () => {
  it('ends with "Get Started Free" to /login for a visitor', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderAt(mfeRouteTree(routes), '/image-resizer', client);
    expect(await screen.findByRole('link', { name: 'Get Started Free' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('link', { name: 'Create now' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'How to use it' })).toBeInTheDocument();
  });

  it('ends with "Create now" to /productgen when signed in', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 200, body: TEST_USER } }, { signedIn: true });
    renderAt(mfeRouteTree(routes), '/remove-object-from-photo', client);
    expect(await screen.findByRole('link', { name: 'Create now' })).toHaveAttribute('href', '/productgen');
  });

  it('shows the eraser’s honest note and its engine error without workers (SPEC §8 text)', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderAt(mfeRouteTree(routes), '/remove-object-from-photo', client);
    expect(await screen.findByText(/fills what you paint from the surrounding picture/)).toBeInTheDocument();
    expect(await screen.findByText('Failed to load AI model. Please refresh the page.')).toBeInTheDocument();
  });
});

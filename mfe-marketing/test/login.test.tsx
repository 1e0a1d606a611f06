import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mfeRouteTree, SIGN_IN_REQUEST_EVENT } from '@productgen/mf-shared';
import { fakeApiClient, renderAt, TEST_USER } from '@productgen/mf-shared/test-support';
import { routesFromManifest } from '../src/routes';
import { primeSiteFixture } from './site-fixture';

const { index } = primeSiteFixture();
const routes = mfeRouteTree([
  ...routesFromManifest(index.routes),
  { path: '/dashboard', element: <h1>Dashboard page</h1> },
]);

describe('/login', () => {
  it('sends signed-in users on to /dashboard', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { body: TEST_USER } }, { signedIn: true });
    renderAt(routes, '/login', client);
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
  });

  it('welcomes visitors with a sign-in button and a before/after example made by the studio engine', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    const signInRequests = jest.fn();
    window.addEventListener(SIGN_IN_REQUEST_EVENT, signInRequests);
    renderAt(routes, '/login', client);

    expect(screen.getByRole('heading', { name: 'Welcome to ProductGen' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with Google' }));
    expect(signInRequests).toHaveBeenCalledTimes(1);

    const before = screen.getByAltText(/^Phone photo: /);
    const after = screen.getByAltText(/^Studio photo made from it: /);
    expect(before.getAttribute('src')).toMatch(/^\/mfe\/marketing\/1\.0\.0\/demo\/\w+\.webp$/);
    expect(after.getAttribute('src')).toMatch(/^\/mfe\/marketing\/1\.0\.0\/demo\/\w+-result-0\.webp$/);
    expect(after).toHaveAttribute('width', '800');
    expect(screen.getByText(/^Photo: Photographer of /)).toBeInTheDocument();
    expect(document.title).toBe('Sign In | ProductGen');
    window.removeEventListener(SIGN_IN_REQUEST_EVENT, signInRequests);
  });
});

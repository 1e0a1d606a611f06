import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { PlatformProvider, type PlatformClient } from '@productgen/platform-client';
import { SIGN_IN_REQUEST_EVENT } from '@productgen/mf-shared';
import { fakeApiClient, TEST_USER } from '@productgen/mf-shared/test-support';
import { LoginPage } from '../src/login/LoginPage';
import { pickRandom, type ExamplePhoto } from '../src/login/example-photos';

const EXAMPLES: ExamplePhoto[] = [
  { file: 'examples/mug.jpg', product: 'coffee mug', credit: 'Jane Doe (Unsplash License)' },
  { file: 'examples/guitar.jpg', product: 'acoustic guitar', credit: 'John Roe (Unsplash License)' },
];

function renderLogin(client: PlatformClient) {
  render(
    <PlatformProvider client={client}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginPage examples={EXAMPLES} />} />
          <Route path="/dashboard" element={<h1>Dashboard page</h1>} />
        </Routes>
      </MemoryRouter>
    </PlatformProvider>,
  );
}

describe('/login', () => {
  it('sends signed-in users on to /dashboard', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { body: TEST_USER } }, { signedIn: true });
    renderLogin(client);
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
  });

  it('welcomes signed-out visitors with a sign-in button and a before/after example', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    const signInRequests = jest.fn();
    window.addEventListener(SIGN_IN_REQUEST_EVENT, signInRequests);
    renderLogin(client);

    expect(screen.getByRole('heading', { name: 'Welcome to ProductGen' })).toBeInTheDocument();
    const button = await screen.findByRole('button', { name: 'Sign in with Google' });
    expect(button).toBeEnabled();
    await userEvent.click(button);
    expect(signInRequests).toHaveBeenCalledTimes(1);

    const before = screen.getByAltText(/^Phone photo of a /);
    expect(before.getAttribute('src')).toMatch(/^\/examples\/(mug|guitar)\.jpg$/);
    expect(screen.getByText('Before')).toBeInTheDocument();
    expect(screen.getByText('After')).toBeInTheDocument();
    expect(screen.getByText(/^Photo: /)).toBeInTheDocument();
    expect(document.title).toBe('Sign In | ProductGen');
    window.removeEventListener(SIGN_IN_REQUEST_EVENT, signInRequests);
  });

  it('shows no example when the build had no demo photos', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    render(
      <PlatformProvider client={client}>
        <MemoryRouter initialEntries={['/login']}>
          <LoginPage examples={[]} />
        </MemoryRouter>
      </PlatformProvider>,
    );
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });
});

describe('pickRandom', () => {
  it('picks by the random source and gives null for an empty list', () => {
    expect(pickRandom(EXAMPLES, () => 0)).toBe(EXAMPLES[0]);
    expect(pickRandom(EXAMPLES, () => 0.99)).toBe(EXAMPLES[1]);
    expect(pickRandom([], () => 0.5)).toBeNull();
  });
});

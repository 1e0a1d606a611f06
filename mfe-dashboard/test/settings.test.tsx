import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { PlatformProvider, type PlatformClient } from '@productgen/platform-client';
import { fakeApiClient, NEVER, TEST_USER } from '@productgen/mf-shared/test-support';
import { namesOf, SettingsPage, SAVED_MESSAGE_MS } from '../src/settings/SettingsPage';

function renderSettings(client: PlatformClient) {
  render(
    <PlatformProvider client={client}>
      <MemoryRouter initialEntries={['/settings']}>
        <Routes>
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/login" element={<h1>Login page</h1>} />
        </Routes>
      </MemoryRouter>
    </PlatformProvider>,
  );
}

afterEach(() => {
  jest.useRealTimers();
});

describe('/settings', () => {
  it('shows a loading state while the user is being fetched', () => {
    const { client } = fakeApiClient({ 'GET /auth/me': NEVER }, { signedIn: true });
    renderSettings(client);
    expect(screen.getByRole('status', { name: 'Loading settings...' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Settings' })).not.toBeInTheDocument();
    expect(document.title).toBe('Settings | ProductGen');
  });

  it('asks signed-out visitors to log in and sends them to /login', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderSettings(client);
    expect(await screen.findByText('Please log in to access settings')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to Login' }));
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
  });

  it('shows read-only account fields, the editable website URL and the shop context', async () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { body: TEST_USER } }, { signedIn: true });
    renderSettings(client);
    const email = await screen.findByLabelText('Email');
    expect(email).toHaveValue('ada@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(screen.getByLabelText('First name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Last name')).toHaveValue('Lovelace');
    const url = screen.getByLabelText('Website URL');
    expect(url).toHaveAttribute('type', 'url');
    expect(url).not.toHaveAttribute('readonly');
    expect(url).toHaveValue('https://ada.example');
    expect(screen.getByRole('listitem')).toHaveTextContent('Kitchenware');
  });

  it('saves the website URL and shows the success message for 3 s', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    const { client, requests } = fakeApiClient(
      {
        'GET /auth/me': { body: TEST_USER },
        'POST /user/settings': { body: { ...TEST_USER, site_url: 'https://new.example' } },
      },
      { signedIn: true },
    );
    renderSettings(client);
    const url = await screen.findByLabelText('Website URL');
    await user.clear(url);
    await user.type(url, 'https://new.example');
    const userFetches = () => requests.filter((request) => request.path === '/auth/me').length;
    const fetchesBefore = userFetches();
    // A plain click: user-event's own awaiting would let the user refetch after the save answer outside act().
    fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await screen.findByText('Settings saved successfully!')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'POST')?.json).toEqual({ site_url: 'https://new.example' });
    // Every app showing the user picks up the new settings: the user is fetched again.
    expect(userFetches()).toBe(fetchesBefore + 1);

    act(() => jest.advanceTimersByTime(SAVED_MESSAGE_MS - 100));
    expect(screen.getByText('Settings saved successfully!')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(200));
    expect(screen.queryByText('Settings saved successfully!')).not.toBeInTheDocument();
  });

  it('shows a failed save in a modal titled "Error" that Close dismisses', async () => {
    const { client } = fakeApiClient(
      {
        'GET /auth/me': { body: TEST_USER },
        'POST /user/settings': { status: 400, body: { code: 400, error: 'site_url must be a valid URL' } },
      },
      { signedIn: true },
    );
    renderSettings(client);
    await userEvent.click(await screen.findByRole('button', { name: 'Save Settings' }));

    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(dialog).toHaveTextContent('site_url must be a valid URL');
    expect(screen.queryByText('Settings saved successfully!')).not.toBeInTheDocument();
    const closeButtons = within(dialog).getAllByRole('button', { name: 'Close' });
    await userEvent.click(closeButtons.find((button) => button.textContent === 'Close') ?? closeButtons[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('namesOf', () => {
  it('prefers the provider given/family names and splits the display name otherwise', () => {
    expect(namesOf({ ...TEST_USER })).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(namesOf({ name: 'Grace Brewster Hopper' })).toEqual({
      firstName: 'Grace',
      lastName: 'Brewster Hopper',
    });
  });
});

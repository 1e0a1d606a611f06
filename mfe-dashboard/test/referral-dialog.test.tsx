import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { PlatformProvider } from '@productgen/platform-client';
import { fakeApiClient, TEST_USER, type FakeRoute } from '@productgen/mf-shared/test-support';
import { DashboardPage } from '../src/dashboard/DashboardPage';
import { ReferralDialog } from '../src/dashboard/ReferralDialog';

/** SPEC §5/§9: the "Other" text is cut to 255 characters. */
const REFERRAL_TEXT_MAX = 255;

const SURVEY = 'How did you hear about us?';

function renderDialog(answer: FakeRoute = { body: { success: true } }) {
  const api = fakeApiClient({ 'POST /hear-about-source': answer }, { signedIn: true });
  const onDone = jest.fn();
  render(
    <PlatformProvider client={api.client}>
      <ReferralDialog open onDone={onDone} />
    </PlatformProvider>,
  );
  const sent = () => api.requests.filter((r) => r.path === '/hear-about-source').map((r) => r.json);
  return { ...api, onDone, sent };
}

const submitButton = () => screen.getByRole('button', { name: 'Submit' });

describe('ReferralDialog', () => {
  it('offers the SPEC options and keeps Submit disabled until one is chosen', async () => {
    const user = userEvent.setup();
    const { sent, onDone } = renderDialog();
    expect(screen.getByRole('dialog', { name: SURVEY })).toBeInTheDocument();
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual([
      'Google Search',
      'Social Media',
      'Friend or Colleague',
      'Advertisement',
      'Other',
    ]);
    expect(submitButton()).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Friend or Colleague' }));
    await user.click(submitButton());
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(sent()).toEqual([{ source: 'Friend or Colleague' }]);
  });

  it('needs text for Other, cuts it to 255 characters and sends the text', async () => {
    const user = userEvent.setup();
    const { sent, onDone } = renderDialog();
    expect(screen.queryByRole('textbox', { name: 'Please specify' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Other' }));
    const text = screen.getByRole('textbox', { name: 'Please specify' });
    expect(submitButton()).toBeDisabled();
    await user.type(text, '   ');
    expect(submitButton()).toBeDisabled();
    await user.clear(text);
    await user.click(text);
    await user.paste('p'.repeat(REFERRAL_TEXT_MAX + 20));
    expect(text).toHaveValue('p'.repeat(REFERRAL_TEXT_MAX));
    await user.click(submitButton());
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(sent()).toEqual([{ source: 'p'.repeat(REFERRAL_TEXT_MAX) }]);
  });

  it('sends "Skipped" on Skip', async () => {
    const user = userEvent.setup();
    const { sent, onDone } = renderDialog();
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(sent()).toEqual([{ source: 'Skipped' }]);
  });

  it('sends "Skipped" when closed with the close button', async () => {
    const user = userEvent.setup();
    const first = renderDialog();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(first.onDone).toHaveBeenCalledTimes(1));
    expect(first.sent()).toEqual([{ source: 'Skipped' }]);
  });

  it('sends "Skipped" on Escape', async () => {
    const user = userEvent.setup();
    const { sent, onDone } = renderDialog();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(sent()).toEqual([{ source: 'Skipped' }]);
  });

  it('swallows a failed save and closes anyway', async () => {
    const user = userEvent.setup();
    const { onDone } = renderDialog({ status: 500, body: { error: 'boom' } });
    await user.click(screen.getByRole('radio', { name: 'Google Search' }));
    await user.click(submitButton());
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(/boom|Failed to save/)).not.toBeInTheDocument();
  });
});

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output aria-label="address">{`${pathname}${search}`}</output>;
}

function renderDashboardAt(path: string, hasSeen: FakeRoute) {
  const api = fakeApiClient(
    {
      'GET /auth/me': { body: TEST_USER },
      'GET /records': { body: { records: [] } },
      'GET /credits/log': { body: { items: [], total: 0 } },
      'POST /payments/check-success': { body: { paid: true, credits: 12 } },
      'POST /pst': { body: { success: true } },
      'GET /hear-about-source/has-seen': hasSeen,
      'POST /hear-about-source': { body: { success: true } },
    },
    { signedIn: true },
  );
  render(
    <PlatformProvider client={api.client}>
      <MemoryRouter initialEntries={[path]}>
        <LocationProbe />
        <Routes>
          <Route path="/dashboard" element={<DashboardPage />} />
        </Routes>
      </MemoryRouter>
    </PlatformProvider>,
  );
  return api;
}

describe('/dashboard referral survey on return from payment', () => {
  it('checks the payment, drops payment=success from the address and shows the survey when not seen', async () => {
    const { requests } = renderDashboardAt('/dashboard?payment=success&session_id=cs_1&tab=x', {
      body: { hasSeen: false },
    });
    expect(await screen.findByRole('dialog', { name: SURVEY })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('/dashboard?tab=x');
    expect(requests.filter((r) => r.path === '/payments/check-success')).toHaveLength(1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: SURVEY })).not.toBeInTheDocument());
    expect(requests.filter((r) => r.path === '/hear-about-source').map((r) => r.json)).toEqual([{ source: 'Skipped' }]);
  });

  it('does not show the survey to a user who has answered it', async () => {
    const { requests } = renderDashboardAt('/dashboard?payment=success', { body: { hasSeen: true } });
    await waitFor(() => expect(requests.some((r) => r.path === '/hear-about-source/has-seen')).toBe(true));
    await waitFor(() => expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent(/^\/dashboard$/));
    await screen.findByRole('heading', { level: 1, name: `Welcome back, ${TEST_USER.name}` });
    expect(screen.queryByRole('dialog', { name: SURVEY })).not.toBeInTheDocument();
  });

  it('neither checks nor asks on a plain visit', async () => {
    const { requests } = renderDashboardAt('/dashboard', { body: { hasSeen: false } });
    await screen.findByRole('heading', { level: 1, name: `Welcome back, ${TEST_USER.name}` });
    expect(requests.some((r) => r.path === '/hear-about-source/has-seen')).toBe(false);
    expect(screen.queryByRole('dialog', { name: SURVEY })).not.toBeInTheDocument();
  });
});

import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlatformProvider } from '@productgen/platform-client';
import { fakeApiClient } from '@productgen/mf-shared/test-support';
import { DemoWidget, shuffled, stageText } from '../src/landing/DemoWidget';
import { primeSiteFixture } from './site-fixture';

primeSiteFixture();

describe('stageText (SPEC §2)', () => {
  it.each([
    [0, 'uploading photo'],
    [9, 'uploading photo'],
    [10, 'analyzing product'],
    [29, 'analyzing product'],
    [30, 'making magic'],
    [69, 'making magic'],
    [70, 'finalizing'],
    [99, 'finalizing'],
  ])('%i%% reads "%s"', (progress, text) => {
    expect(stageText(progress)).toBe(text);
  });
});

describe('shuffled', () => {
  it('keeps every item once', () => {
    const items = [1, 2, 3, 4, 5];
    expect(shuffled(items, () => 0).sort()).toEqual(items);
    expect(shuffled(items, () => 0)).not.toEqual(items);
  });
});

describe('the demo widget', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('goes from a sample pick through Working... to Done! with 5 selectable results, then Reset', async () => {
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    render(
      <PlatformProvider client={client}>
        <DemoWidget />
      </PlatformProvider>,
    );
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Pick a sample photo' }));
    const dialog = screen.getByRole('dialog', { name: 'Pick a sample photo' });
    expect(within(dialog).getAllByRole('button', { name: /photo$/ })).toHaveLength(5);
    // Visitors are offered sign-in in the modal, signed-in sellers "Create now".
    expect(within(dialog).getByRole('button', { name: 'Join with Google' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'mug photo' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('button', { name: 'Working...' })).toBeDisabled();
    expect(screen.getByText('uploading photo')).toBeInTheDocument();
    for (const [step, text] of [
      [1, 'analyzing product'],
      [2, 'making magic'],
      [3, 'making magic'],
      [4, 'finalizing'],
    ] as const) {
      act(() => jest.advanceTimersByTime(600));
      expect(screen.getByText(text)).toBeInTheDocument();
      expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(step * 20));
    }
    act(() => jest.advanceTimersByTime(600));
    expect(screen.getByRole('button', { name: 'Done!' })).toBeDisabled();

    const results = within(screen.getByRole('list', { name: 'Results' })).getAllByRole('button');
    expect(results).toHaveLength(5);
    expect(results[0]).toHaveAttribute('aria-pressed', 'true');
    await user.click(results[3]!);
    expect(results[3]).toHaveAttribute('aria-pressed', 'true');
    const preview = screen.getByAltText('Studio photo made from the mug photo');
    expect(preview.getAttribute('src')).toBe(results[3]!.querySelector('img')!.getAttribute('src'));

    await user.click(screen.getByRole('link', { name: 'Reset' }));
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled();
    expect(screen.queryByRole('list', { name: 'Results' })).not.toBeInTheDocument();
  });
});

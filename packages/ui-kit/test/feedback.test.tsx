import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ProgressBar, Spinner, ToastProvider, useToast, type ToastOptions } from '@productgen/ui-kit';

describe('ProgressBar', () => {
  it('exposes its value, bounds and name', () => {
    render(<ProgressBar value={42} label="Uploading photo..." showPercentage />);

    const bar = screen.getByRole('progressbar', { name: 'Uploading photo...' });
    expect(bar).toHaveAttribute('aria-valuenow', '42');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByText('42%')).toBeInTheDocument();
  });

  it('clamps out-of-range values and supports another maximum with value text', () => {
    const { rerender } = render(<ProgressBar value={150} ariaLabel="Job progress" />);
    expect(screen.getByRole('progressbar', { name: 'Job progress' })).toHaveAttribute('aria-valuenow', '100');

    rerender(<ProgressBar value={-5} ariaLabel="Job progress" />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');

    rerender(<ProgressBar value={12} max={40} ariaLabel="Job progress" valueText="12 of 40 images" />);
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuemax', '40');
    expect(bar).toHaveAttribute('aria-valuenow', '12');
    expect(bar).toHaveAttribute('aria-valuetext', '12 of 40 images');
  });

  it('omits aria-valuenow when indeterminate', () => {
    render(<ProgressBar ariaLabel="Loading model" />);
    expect(screen.getByRole('progressbar', { name: 'Loading model' })).not.toHaveAttribute('aria-valuenow');
  });
});

describe('Spinner', () => {
  it('announces loading unless told that a surrounding element already does', () => {
    const { rerender } = render(<Spinner label="Analyzing image..." />);
    expect(screen.getByRole('status', { name: 'Analyzing image...' })).toBeInTheDocument();

    rerender(<Spinner label={null} />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('Toast', () => {
  afterEach(() => jest.useRealTimers());

  function Trigger({ options }: { options: ToastOptions }) {
    const { showToast } = useToast();
    return <button onClick={() => showToast(options)}>Notify</button>;
  }

  function renderToasts(options: ToastOptions) {
    render(
      <ToastProvider>
        <Trigger options={options} />
      </ToastProvider>,
    );
    return screen.getByRole('status', { name: 'Notifications' });
  }

  it('announces toasts in a polite live region and dismisses them after their duration', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    const region = renderToasts({ message: 'Settings saved successfully!', tone: 'success', durationMs: 3_000 });
    expect(region).toHaveAttribute('aria-live', 'polite');

    await user.click(screen.getByRole('button', { name: 'Notify' }));
    expect(region).toHaveTextContent('Settings saved successfully!');

    act(() => jest.advanceTimersByTime(2_900));
    expect(region).toHaveTextContent('Settings saved successfully!');
    act(() => jest.advanceTimersByTime(200));
    expect(region).not.toHaveTextContent('Settings saved successfully!');
  });

  it('uses a 5 s default, keeps toasts with duration 0, and closes on the dismiss button', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    const region = renderToasts({ message: 'Stays until closed', durationMs: 0 });

    await user.click(screen.getByRole('button', { name: 'Notify' }));
    act(() => jest.advanceTimersByTime(60_000));
    expect(region).toHaveTextContent('Stays until closed');

    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(region).toBeEmptyDOMElement();
  });

  it('dismisses a toast with the default duration after 5 s', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    const region = renderToasts({ message: 'Default toast' });

    await user.click(screen.getByRole('button', { name: 'Notify' }));
    act(() => jest.advanceTimersByTime(4_999));
    expect(region).toHaveTextContent('Default toast');
    act(() => jest.advanceTimersByTime(1));
    expect(region).toBeEmptyDOMElement();
  });

  it('explains a missing provider', () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Trigger options={{ message: 'x' }} />)).toThrow(
      'useToast must be used inside a <ToastProvider>',
    );
    consoleError.mockRestore();
  });
});

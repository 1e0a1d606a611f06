import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PlatformProvider } from '@productgen/platform-client';
import { fakeApiClient, NEVER, type FakeRoute } from '@productgen/mf-shared/test-support';
import { REFUND_SUCCESS_MS, REFUND_SUCCESS_TEXT, RefundDialog } from '../src/dashboard/RefundDialog';

const GENERATION_UUID = '5f2b7c1e-8d3a-4e6f-9b0c-1a2d3e4fab12';
const DETAIL = {
  body: {
    id: 'gen-1',
    generation_uuid: GENERATION_UUID,
    created_at: '2025-06-01T12:00:00.000Z',
    images: [0, 1].map((index) => ({
      id: `image-${index}`,
      input_url: '/download/original.png',
      output_url: `/download/${GENERATION_UUID}/image/${index}`,
      metadata: { fixes_done: [true] },
    })),
    metadata: { category: 'mug', num_images: 2, status: 'completed', error: null },
    original_image_url: '/download/original.png',
    original_filename: null,
  },
};

function renderDialog(refund: FakeRoute, detail: FakeRoute = DETAIL) {
  const api = fakeApiClient(
    { [`GET /image-gen/generated/${GENERATION_UUID}`]: detail, 'POST /support/refund': refund },
    { signedIn: true },
  );
  const onClose = jest.fn();
  const onRefunded = jest.fn();
  render(
    <PlatformProvider client={api.client}>
      <RefundDialog generationUuid={GENERATION_UUID} onClose={onClose} onRefunded={onRefunded} />
    </PlatformProvider>,
  );
  return { ...api, onClose, onRefunded };
}

const submitButton = () => screen.getByRole('button', { name: 'Submit' });

describe('RefundDialog', () => {
  it('stays closed without a generation', () => {
    const { client } = fakeApiClient({});
    render(
      <PlatformProvider client={client}>
        <RefundDialog generationUuid={null} onClose={() => {}} />
      </PlatformProvider>,
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows a loading state while the images load', () => {
    renderDialog({ body: {} }, NEVER);
    expect(screen.getByRole('dialog', { name: 'Request Refund' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading images...' })).toBeInTheDocument();
  });

  it('keeps Submit disabled until one image and a reason are given', async () => {
    const user = userEvent.setup();
    renderDialog({ body: { success: true } });
    expect(await screen.findByRole('img', { name: 'Created image 1' })).toHaveAttribute(
      'src',
      `https://api.productgen.test/download/${GENERATION_UUID}/image/0`,
    );
    expect(screen.getByRole('group', { name: 'Choose the image to refund' })).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Created image 2' }));
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), '   ');
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'Blurry label');
    expect(submitButton()).toBeEnabled();
  });

  it('sends the request, shows the success overlay for 2 s, then closes', async () => {
    jest.useFakeTimers();
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      const { requests, onClose, onRefunded } = renderDialog({ body: { success: true } });
      await user.click(await screen.findByRole('radio', { name: 'Created image 2' }));
      await user.type(screen.getByRole('textbox', { name: 'Reason' }), '  Blurry label ');
      await user.click(submitButton());
      expect(await screen.findByText(REFUND_SUCCESS_TEXT)).toHaveAttribute('role', 'status');
      expect(requests.filter((r) => r.path === '/support/refund').map((r) => r.json)).toEqual([
        { generationUuid: GENERATION_UUID, imageIndex: 1, refundReason: 'Blurry label' },
      ]);
      expect(onRefunded).toHaveBeenCalledTimes(1);
      expect(submitButton()).toBeDisabled();
      await act(async () => {
        await jest.advanceTimersByTimeAsync(REFUND_SUCCESS_MS - 1);
      });
      expect(onClose).not.toHaveBeenCalled();
      await act(async () => {
        await jest.advanceTimersByTimeAsync(1);
      });
      expect(onClose).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('swallows a refused refund: no message, and the form can be sent again', async () => {
    const user = userEvent.setup();
    const { requests, onClose, onRefunded } = renderDialog({
      status: 409,
      body: { error: 'This image has already been refunded' },
    });
    await user.click(await screen.findByRole('radio', { name: 'Created image 1' }));
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'Wrong colour');
    await user.click(submitButton());
    expect(await screen.findByRole('button', { name: 'Submit' })).toBeEnabled();
    expect(requests.filter((r) => r.path === '/support/refund')).toHaveLength(1);
    expect(screen.queryByText(REFUND_SUCCESS_TEXT)).not.toBeInTheDocument();
    expect(screen.queryByText(/already been refunded/)).not.toBeInTheDocument();
    expect(onRefunded).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog({ body: { success: true } });
    await screen.findByRole('radio', { name: 'Created image 1' });
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

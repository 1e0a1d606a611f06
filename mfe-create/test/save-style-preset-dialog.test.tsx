import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { fakeApiClient } from '@productgen/mf-shared/test-support';
import { PlatformProvider } from '@productgen/platform-client';
import { SaveStylePresetDialog } from '../src/preset/SaveStylePresetDialog';
import { advance, requestsTo } from './support';

type Routes = Parameters<typeof fakeApiClient>[0];

let user: ReturnType<typeof userEvent.setup>;

beforeEach(() => {
  jest.useFakeTimers();
  user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
});

afterEach(() => {
  jest.useRealTimers();
});

function Harness({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      <SaveStylePresetDialog
        open={open}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        generationUuid="gen-uuid-1"
        imageIndex={2}
        category="Kitchenware"
      />
    </>
  );
}

function renderDialog(api: Routes = { 'POST /style-presets': { body: { id: 'p1', preset_name: 'x' } } }) {
  const { client, requests } = fakeApiClient(api, { signedIn: true });
  const onClose = jest.fn();
  render(
    <PlatformProvider client={client}>
      <Harness onClose={onClose} />
    </PlatformProvider>,
  );
  return { requests, onClose };
}

const nameField = () => screen.getByLabelText('Preset Name');
const saveButton = () => screen.getByRole('button', { name: /^(Save|Saving\.\.\.|Done!)$/ });
const closeButton = () => screen.getByRole('button', { name: 'Close' });

function deferred() {
  let resolve!: (reply: { status?: number; body?: unknown }) => void;
  const promise = new Promise<{ status?: number; body?: unknown }>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('Save Style Preset dialog', () => {
  it('shows the category read-only, the "Preset Name" field and Save', () => {
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Save Style Preset' })).toBeInTheDocument();
    expect(screen.getByTestId('preset-category')).toHaveTextContent('Kitchenware');
    expect(screen.queryByRole('textbox', { name: /Category/ })).not.toBeInTheDocument();
    expect(nameField()).toHaveAttribute('placeholder', 'Enter a name...');
    expect(nameField()).toHaveAttribute('maxLength', '255');
    expect(saveButton()).toHaveTextContent('Save');
  });

  it('keeps Save disabled for a blank name and does nothing on submit', async () => {
    const { requests } = renderDialog();
    expect(saveButton()).toBeDisabled();
    await user.type(nameField(), '   ');
    expect(saveButton()).toBeDisabled();
    fireEvent.submit(nameField().closest('form')!);
    await advance(0);
    expect(requestsTo(requests, 'POST', '/style-presets')).toHaveLength(0);
  });

  it('sends the trimmed name, reads "Saving..." then "Done!" and closes 1 s later', async () => {
    const answer = deferred();
    const { requests, onClose } = renderDialog({ 'POST /style-presets': () => answer.promise });
    await user.type(nameField(), '  Warm wood  ');
    await user.click(saveButton());
    expect(saveButton()).toHaveTextContent('Saving...');
    expect(saveButton()).toBeDisabled();
    expect(nameField()).toBeDisabled();
    expect(closeButton()).toBeDisabled();
    await act(async () => answer.resolve({ body: { id: 'p1', preset_name: 'Warm wood' } }));
    expect(saveButton()).toHaveTextContent('Done!');
    expect(saveButton()).toBeDisabled();
    expect(nameField()).toBeDisabled();
    expect(closeButton()).toBeDisabled();
    expect(requestsTo(requests, 'POST', '/style-presets')[0]?.json).toEqual({
      generation_uuid: 'gen-uuid-1',
      image_index: 2,
      preset_name: 'Warm wood',
    });
    await advance(999);
    expect(onClose).not.toHaveBeenCalled();
    await advance(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('cuts the name to 255 characters', async () => {
    const { requests } = renderDialog();
    fireEvent.change(nameField(), { target: { value: 'a'.repeat(300) } });
    expect(nameField()).toHaveValue('a'.repeat(255));
    await user.click(saveButton());
    await advance(0);
    expect(
      (requestsTo(requests, 'POST', '/style-presets')[0]?.json as { preset_name: string }).preset_name,
    ).toHaveLength(255);
  });

  it("shows the failure's error field and re-enables the form", async () => {
    renderDialog({ 'POST /style-presets': { status: 404, body: { code: 404, error: 'Generation not found' } } });
    await user.type(nameField(), 'Marble');
    await user.click(saveButton());
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Generation not found');
    expect(saveButton()).toHaveTextContent('Save');
    expect(saveButton()).toBeEnabled();
    expect(nameField()).toBeEnabled();
    expect(closeButton()).toBeEnabled();
  });

  it('shows "An unexpected error occurred." when the failure has no error field', async () => {
    renderDialog({
      'POST /style-presets': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await user.type(nameField(), 'Marble');
    await user.click(saveButton());
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('An unexpected error occurred.');
    expect(saveButton()).toBeEnabled();
  });

  it('closes from the close button and from the backdrop, and starts afresh when opened again', async () => {
    const { onClose } = renderDialog({ 'POST /style-presets': { status: 500, body: { error: 'Broken' } } });
    await user.type(nameField(), 'Marble');
    await user.click(saveButton());
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Broken');
    await user.click(closeButton());
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open dialog' }));
    expect(nameField()).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('ignores the backdrop while saving', async () => {
    const answer = deferred();
    const { onClose } = renderDialog({ 'POST /style-presets': () => answer.promise });
    await user.type(nameField(), 'Marble');
    await user.click(saveButton());
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => answer.resolve({ body: { id: 'p1' } }));
  });
});

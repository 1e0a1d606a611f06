import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Button, Modal, TextField } from '@productgen/ui-kit';

function PresetDialog({ dismissible = true }: { dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Save style</Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Save Style Preset"
        dismissible={dismissible}
        footer={<Button onClick={() => setOpen(false)}>Save</Button>}
      >
        <TextField label="Preset name" />
      </Modal>
    </>
  );
}

async function openDialog(dismissible = true) {
  const user = userEvent.setup();
  render(<PresetDialog dismissible={dismissible} />);
  const opener = screen.getByRole('button', { name: 'Save style' });
  await user.click(opener);
  return { user, opener, dialog: screen.getByRole('dialog') };
}

describe('Modal', () => {
  it('is a modal dialog named by its title and moves focus inside', async () => {
    const { dialog } = await openDialog();

    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('dialog', { name: 'Save Style Preset' })).toBe(dialog);
    expect(screen.getByLabelText('Preset name')).toHaveFocus();
  });

  it('traps Tab and Shift+Tab inside the dialog', async () => {
    const { user } = await openDialog();
    const close = screen.getByRole('button', { name: 'Close' });
    const input = screen.getByLabelText('Preset name');
    const save = screen.getByRole('button', { name: 'Save' });

    await user.tab();
    expect(save).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(input).toHaveFocus();
    await user.tab({ shift: true });
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(save).toHaveFocus();
  });

  it('closes on Escape and returns focus to the opener', async () => {
    const { user, opener } = await openDialog();

    await user.keyboard('{Escape}');

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('closes on a backdrop click but not on a click inside', async () => {
    const { user } = await openDialog();

    await user.click(screen.getByLabelText('Preset name'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    await user.click(screen.getByTestId('modal-backdrop'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('ignores Escape, the backdrop and the close button when not dismissible', async () => {
    const { user } = await openDialog(false);

    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('modal-backdrop'));

    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
  });

  it('closes with the close button', async () => {
    const { user, opener } = await openDialog();

    await user.click(screen.getByRole('button', { name: 'Close' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});

describe('Modal when focus has fallen to the page', () => {
  it('closes the innermost dialog on Escape and takes focus back', async () => {
    const user = userEvent.setup();
    const closed: string[] = [];
    render(
      <>
        <Modal open onClose={() => closed.push('outer')} title="Outer">
          <p>outer</p>
        </Modal>
        <Modal open onClose={() => closed.push('inner')} title="Inner">
          <p>inner</p>
        </Modal>
      </>,
    );
    (document.activeElement as HTMLElement).blur();
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Escape}');
    expect(closed).toEqual(['inner']);
    expect(document.activeElement).toBe(screen.getByRole('dialog', { name: 'Inner' }));
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Menu, type MenuItem } from '@productgen/ui-kit';

function renderMenu(onSelect = jest.fn()) {
  const items: MenuItem[] = [
    { label: 'Image Resizer', onSelect: () => onSelect('resizer') },
    { label: 'AI Background Remover', onSelect: () => onSelect('remover') },
    { label: 'Remove Object from Photo', href: '/remove-object-from-photo' },
  ];
  render(
    <>
      <Menu label="Free Tools" items={items} />
      <button>Outside</button>
    </>,
  );
  return { trigger: screen.getByRole('button', { name: 'Free Tools' }), onSelect, user: userEvent.setup() };
}

describe('Menu', () => {
  it('announces a closed popup menu until opened', async () => {
    const { trigger, user } = renderMenu();

    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    await user.click(trigger);

    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu', { name: 'Free Tools' });
    expect(trigger).toHaveAttribute('aria-controls', menu.id);
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Image Resizer',
      'AI Background Remover',
      'Remove Object from Photo',
    ]);
    expect(screen.getByRole('menuitem', { name: 'Remove Object from Photo' })).toHaveAttribute(
      'href',
      '/remove-object-from-photo',
    );
  });

  it.each(['{Enter}', ' ', '{ArrowDown}'])('opens with %s and focuses the first item', async (key) => {
    const { trigger, user } = renderMenu();
    trigger.focus();

    await user.keyboard(key);

    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Image Resizer' })).toHaveFocus();
  });

  it('opens on the last item with ArrowUp', async () => {
    const { trigger, user } = renderMenu();
    trigger.focus();

    await user.keyboard('{ArrowUp}');

    expect(screen.getByRole('menuitem', { name: 'Remove Object from Photo' })).toHaveFocus();
  });

  it('moves focus with the arrow keys, wrapping at both ends, and with Home and End', async () => {
    const { trigger, user } = renderMenu();
    trigger.focus();
    await user.keyboard('{ArrowDown}');

    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'AI Background Remover' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Image Resizer' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Remove Object from Photo' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('menuitem', { name: 'Image Resizer' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Remove Object from Photo' })).toHaveFocus();
  });

  it('closes on Escape and returns focus to the button', async () => {
    const { trigger, user } = renderMenu();
    trigger.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');

    await user.keyboard('{Escape}');

    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(trigger).toHaveFocus();
  });

  it('runs the chosen item with Enter, closes and refocuses the button', async () => {
    const { trigger, onSelect, user } = renderMenu();
    trigger.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');

    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSelect).toHaveBeenCalledWith('remover');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  it('closes on a click outside', async () => {
    const { trigger, user } = renderMenu();
    await user.click(trigger);

    await user.click(screen.getByRole('button', { name: 'Outside' }));

    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});

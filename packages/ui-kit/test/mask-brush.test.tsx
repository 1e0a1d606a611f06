import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MaskBrush, SelectField, type Mask } from '@productgen/ui-kit';

const WIDTH = 20;
const HEIGHT = 10;
const blank = (): Mask => ({ data: new Uint8Array(WIDTH * HEIGHT), width: WIDTH, height: HEIGHT });

/** A mouse's pointer event; jsdom has no PointerEvent, so a MouseEvent carries the pointer's fields. */
function pointer(type: string, x: number, y: number, pointerId = 1): MouseEvent {
  const event = new MouseEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0 });
  Object.defineProperties(event, { pointerId: { value: pointerId }, pointerType: { value: 'mouse' } });
  return event;
}

beforeEach(() => {
  // jsdom has no 2D canvas: the brush paints its mask without drawing it.
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

afterEach(() => jest.restoreAllMocks());

describe('MaskBrush', () => {
  it('offers named toggle buttons in the tab order and a named picture', async () => {
    const user = userEvent.setup();
    render(<MaskBrush photo="data:image/png;base64,AA==" initial={blank()} label="The cut-out" />);
    expect(screen.getByRole('img', { name: 'The cut-out' })).toHaveAttribute('width', String(WIDTH));
    await user.tab();
    expect(screen.getByRole('button', { name: 'Keep' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Remove' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Remove' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Keep' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('group', { name: 'Brush size' })).toBeInTheDocument();
  });

  it('reports each stroke, undo and reset with whether the mask differs from the start', async () => {
    const user = userEvent.setup();
    const onChange = jest.fn();
    render(<MaskBrush photo="data:image/png;base64,AA==" initial={blank()} onChange={onChange} />);
    const canvas = screen.getByRole('img', { name: 'Cut-out' });
    fireEvent(canvas, pointer('pointerdown', 2.5, 5.5));
    fireEvent(canvas, pointer('pointermove', 12.5, 5.5));
    // Another finger's move is not this stroke's.
    fireEvent(canvas, pointer('pointermove', 18.5, 1.5, 2));
    fireEvent(canvas, pointer('pointerup', 12.5, 5.5));
    expect(onChange).toHaveBeenCalledTimes(1);
    const [mask, edited] = onChange.mock.calls[0] as [Mask, boolean];
    expect(edited).toBe(true);
    expect(mask.data[5 * WIDTH + 7]).toBe(255);
    expect(mask.data[1 * WIDTH + 18]).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ width: WIDTH }), false);
    expect(screen.getByRole('button', { name: 'Undo' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
  });

  it('read-only: the cut-out without tools, and strokes do nothing', () => {
    const onChange = jest.fn();
    render(<MaskBrush photo="data:image/png;base64,AA==" initial={blank()} onChange={onChange} readOnly />);
    expect(screen.queryByRole('button', { name: 'Keep' })).not.toBeInTheDocument();
    const canvas = screen.getByRole('img', { name: 'Cut-out' });
    fireEvent(canvas, pointer('pointerdown', 2.5, 5.5));
    fireEvent(canvas, pointer('pointerup', 2.5, 5.5));
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('SelectField', () => {
  it('is a labelled select that reports the chosen value', async () => {
    const user = userEvent.setup();
    const onChange = jest.fn();
    render(
      <SelectField
        label="Category"
        value="a"
        onChange={onChange}
        options={[
          { value: 'a', label: 'Apples' },
          { value: 'b', label: 'Bags' },
        ]}
      />,
    );
    await user.selectOptions(screen.getByLabelText('Category'), 'b');
    expect(onChange).toHaveBeenCalledWith('b');
  });
});

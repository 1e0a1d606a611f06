import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Button, LinkButton, Slider, TextArea, TextField } from '@productgen/ui-kit';

describe('Button', () => {
  it('applies variant and size classes and submits nothing by default', () => {
    render(
      <Button variant="danger" size="lg">
        Delete
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button).toHaveClass('button', 'danger', 'lg');
    expect(button).toHaveAttribute('type', 'button');
  });

  it('is busy and unclickable while loading', async () => {
    const onClick = jest.fn();
    render(
      <Button loading onClick={onClick}>
        Saving...
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Saving...' });

    await userEvent.click(button);

    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(onClick).not.toHaveBeenCalled();
  });

  it('renders a real link that looks like a button', () => {
    render(
      <LinkButton href="/pricing" variant="secondary">
        Buy Credits
      </LinkButton>,
    );
    const link = screen.getByRole('link', { name: 'Buy Credits' });
    expect(link).toHaveAttribute('href', '/pricing');
    expect(link).toHaveClass('button', 'secondary', 'md');
  });
});

describe('TextField and TextArea', () => {
  it('labels the input and links hint and error to it', () => {
    render(<TextField label="Website URL" type="url" hint="Your shop address" error="Enter a valid URL" />);

    const input = screen.getByLabelText('Website URL');
    expect(input).toHaveAttribute('type', 'url');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Your shop address Enter a valid URL');
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a valid URL');
  });

  it('is valid without an error and passes input props through', async () => {
    const onChange = jest.fn();
    render(<TextArea label="Reason" maxLength={255} onChange={onChange} />);

    const textarea = screen.getByRole('textbox', { name: 'Reason' });
    await userEvent.type(textarea, 'Blurry');

    expect(textarea).not.toHaveAttribute('aria-invalid');
    expect(textarea).toHaveAttribute('maxLength', '255');
    expect(onChange).toHaveBeenCalledTimes(6);
  });
});

describe('Slider', () => {
  function BrushSize() {
    const [size, setSize] = useState(40);
    return (
      <Slider label="Brush size" min={10} max={100} value={size} onChange={setSize} formatValue={(v) => `${v} px`} />
    );
  }

  it('is a labelled range with its bounds and reports numbers', () => {
    render(<BrushSize />);
    const slider = screen.getByRole('slider', { name: 'Brush size' });

    expect(slider).toHaveAttribute('min', '10');
    expect(slider).toHaveAttribute('max', '100');
    expect(slider).toHaveValue('40');
    expect(slider).toHaveAttribute('aria-valuetext', '40 px');

    fireEvent.change(slider, { target: { value: '65' } });

    expect(slider).toHaveValue('65');
    expect(screen.getByText('65 px')).toBeInTheDocument();
  });
});

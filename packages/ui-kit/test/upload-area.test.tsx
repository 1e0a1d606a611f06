import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UploadArea } from '@productgen/ui-kit';

const photo = (name: string, type = 'image/jpeg') => new File(['pixels'], name, { type });

function drop(files: File[]) {
  fireEvent.drop(screen.getByTestId('upload-area'), { dataTransfer: { files } });
}

describe('UploadArea', () => {
  it('passes on chosen and dropped images, leaving other files out when asked to', async () => {
    const onFiles = jest.fn();
    render(<UploadArea title="Choose images" text="JPEG or PNG" multiple imagesOnly onFiles={onFiles} />);
    const input = screen.getByLabelText(/Choose images/);
    expect(input).toHaveAttribute('accept', 'image/*');

    await userEvent.upload(input, [photo('a.jpg'), photo('b.png', 'image/png')]);
    expect(onFiles).toHaveBeenLastCalledWith([
      expect.objectContaining({ name: 'a.jpg' }),
      expect.objectContaining({ name: 'b.png' }),
    ]);
    // Cleared, so the same file can be chosen again.
    expect((input as HTMLInputElement).value).toBe('');

    drop([photo('notes.txt', 'text/plain'), photo('c.webp', 'image/webp')]);
    expect(onFiles).toHaveBeenLastCalledWith([expect.objectContaining({ name: 'c.webp' })]);
    onFiles.mockClear();
    drop([photo('notes.txt', 'text/plain')]);
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('takes one file unless multiple; a disabled area takes none', () => {
    const onFiles = jest.fn();
    const { rerender } = render(<UploadArea title="Upload a product photo" onFiles={onFiles} />);
    drop([photo('a.jpg'), photo('notes.txt', 'text/plain')]);
    expect(onFiles).toHaveBeenLastCalledWith([expect.objectContaining({ name: 'a.jpg' })]);

    onFiles.mockClear();
    rerender(<UploadArea title="Upload a product photo" onFiles={onFiles} disabled />);
    drop([photo('a.jpg')]);
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('offers the camera and the gallery on phones, and shows a preview with a compact browse control', () => {
    render(
      <UploadArea
        title="Replace photo"
        onFiles={jest.fn()}
        phoneButtons
        hint="Click to start!"
        preview={<img src="blob:photo" alt="Your product photo" />}
      />,
    );
    expect(screen.getByLabelText('Take Photo')).toHaveAttribute('capture', 'environment');
    expect(screen.getByLabelText('Choose from Gallery')).not.toHaveAttribute('capture');
    expect(screen.getByRole('img', { name: 'Your product photo' })).toBeInTheDocument();
    expect(screen.getByText('Replace photo').closest('label')).toHaveClass('browseCompact');
    expect(screen.getByRole('note')).toHaveTextContent('Click to start!');
  });
});

import sharp from 'sharp';
import { checkImageHeader, sniffImageType } from '@productgen/image-checks';

const limits = { maxBytes: 1024 * 1024, maxPixels: 1_000_000 };

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } });

test('the type comes from the magic bytes, never the name', async () => {
  expect(sniffImageType(await picture(40, 40).jpeg().toBuffer())).toBe('jpeg');
  expect(sniffImageType(await picture(40, 40).png().toBuffer())).toBe('png');
  expect(sniffImageType(await picture(40, 40).webp().toBuffer())).toBe('webp');
  expect(sniffImageType(Buffer.from('%PDF-1.7'))).toBeUndefined();
});

test('a good image passes with its size read from the header', async () => {
  await expect(checkImageHeader(await picture(200, 100).png().toBuffer(), limits)).resolves.toEqual({
    type: 'png',
    width: 200,
    height: 100,
    hasAlpha: false,
  });
});

test('refusals: empty 400, too many bytes 413, not an image 415, too many pixels 413, too small 400', async () => {
  await expect(checkImageHeader(Buffer.alloc(0), limits)).rejects.toMatchObject({ status: 400 });
  await expect(checkImageHeader(Buffer.alloc(2 * 1024 * 1024, 0xff), limits)).rejects.toMatchObject({ status: 413 });
  await expect(checkImageHeader(Buffer.from('not an image at all'), limits)).rejects.toMatchObject({
    status: 415,
    message: 'The file is not a supported image (JPEG, PNG or WebP).',
  });
  await expect(checkImageHeader(await picture(1200, 1000).jpeg().toBuffer(), limits)).rejects.toMatchObject({
    status: 413,
    message: 'The image is too large: 1200×1000 pixels, at most 1 megapixels.',
  });
  await expect(checkImageHeader(await picture(20, 200).jpeg().toBuffer(), limits)).rejects.toMatchObject({
    status: 400,
  });
});

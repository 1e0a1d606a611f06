/**
 * @jest-environment node
 */
import sharp from 'sharp';
import { base64FromBytes, bytesFromBase64, decodeMaskPng, encodeMaskPng } from '../src/single/mask-png';

// The mask codec against libvips, which makes the PNGs the API serves (and checks the ones it receives).

function gradientMask(width: number, height: number) {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data[y * width + x] = (x * 7 + y * 13) % 256;
  return { data, width, height };
}

describe('the mask PNG codec', () => {
  test('what it encodes, libvips reads as the same 8-bit grayscale pixels', async () => {
    const mask = gradientMask(37, 23);
    const png = Buffer.from(encodeMaskPng(mask));
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 37, height: 23, channels: 1 });
    const pixels = await sharp(png).extractChannel(0).raw().toBuffer();
    expect(new Uint8Array(pixels)).toEqual(mask.data);
  });

  test.each([
    ['grayscale', 1],
    ['gray with alpha', 2],
    ['RGB', 3],
    ['RGBA', 4],
  ] as const)('it reads libvips %s PNGs, every row filter included', async (_kind, channels) => {
    const mask = gradientMask(64, 40);
    const raw = Buffer.alloc(mask.data.length * channels);
    for (let k = 0; k < mask.data.length; k += 1) {
      for (let c = 0; c < channels; c += 1)
        raw[k * channels + c] = c === 0 || channels < 3 || c < 3 ? mask.data[k]! : 255;
    }
    let image = sharp(raw, { raw: { width: 64, height: 40, channels } });
    if (channels <= 2) image = image.toColourspace('b-w');
    // Adaptive filtering makes libvips choose among all five row filters.
    const png = await image.png({ adaptiveFiltering: true, compressionLevel: 9 }).toBuffer();
    expect(decodeMaskPng(new Uint8Array(png))).toEqual(mask);
  });

  test('base64 round trip, and a file that is not a PNG is refused', () => {
    const bytes = encodeMaskPng(gradientMask(300, 200));
    expect(bytesFromBase64(base64FromBytes(bytes))).toEqual(bytes);
    expect(() => decodeMaskPng(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toThrow('not a PNG');
  });
});

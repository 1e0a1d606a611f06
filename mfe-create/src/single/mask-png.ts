import { unzlibSync, zlibSync } from 'fflate';
import type { Mask } from '@productgen/ui-kit';

/*
 * The cut-out mask travels as an 8-bit grayscale PNG (base64 in JSON). Encoded and decoded here in plain code rather
 * than through a canvas, whose colour handling could shift the values and which jsdom does not have.
 */

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
const GRAYSCALE = 0;
/** Bytes per pixel of each PNG colour type at 8 bits: gray, RGB, (palette), gray+alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let k = 0; k < 4; k += 1) out[4 + k] = type.charCodeAt(k);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The mask as a grayscale PNG. */
export function encodeMaskPng(mask: Mask): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, mask.width);
  view.setUint32(4, mask.height);
  header.set([8, GRAYSCALE, 0, 0, 0], 8);
  // Each row: filter type 0 (none), then its bytes.
  const rows = new Uint8Array((mask.width + 1) * mask.height);
  for (let y = 0; y < mask.height; y += 1) {
    rows.set(mask.data.subarray(y * mask.width, (y + 1) * mask.width), y * (mask.width + 1) + 1);
  }
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(rows, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - up);
  const pc = Math.abs(p - upLeft);
  return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
}

/** The first channel of an 8-bit, non-interlaced PNG (gray, or red) as a mask; throws on anything else. */
export function decodeMaskPng(png: Uint8Array): Mask {
  if (SIGNATURE.some((byte, index) => png[index] !== byte)) throw new Error('The mask is not a PNG.');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Uint8Array[] = [];
  for (let offset = 8; offset + 8 <= png.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      const [depth, colourType, , , interlace] = body.subarray(8, 13);
      channels = CHANNELS[colourType ?? -1] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error('The mask PNG is not 8-bit and flat.');
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const compressed = new Uint8Array(data.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of data) {
    compressed.set(part, at);
    at += part.length;
  }
  const raw = unzlibSync(compressed);
  const stride = width * channels;
  const current = new Uint8Array(stride);
  const previous = new Uint8Array(stride);
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x += 1) {
      const left = x >= channels ? current[x - channels]! : 0;
      const up = previous[x]!;
      const upLeft = x >= channels ? previous[x - channels]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter] ?? 0;
      current[x] = (row[x]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x += 1) mask[y * width + x] = current[x * channels]!;
    previous.set(current);
  }
  return { data: mask, width, height };
}

export function base64FromBytes(bytes: Uint8Array): string {
  let text = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(text);
}

export function bytesFromBase64(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let k = 0; k < text.length; k += 1) bytes[k] = text.charCodeAt(k);
  return bytes;
}

import sharp from 'sharp';
import { composeCanvas, type CanvasMemory, type Overlay } from './canvas';
import { encodeJpeg } from './detail';
import type { MarketplaceCheck } from './marketplace';
import type { Layout } from './scene';
import { asBuffer } from '../threads/shared-memory';

/*
 * The pixel thread's part of an image: the product scaled for its layout, drawn over the backdrop and encoded
 * (`composeImage`). The main thread's part (backdrops, and the request sent here) is render/compose.ts.
 */

/** A cut-out product (straight RGBA) with its tight box inside the buffer. */
export interface ProductSource {
  rgba: Buffer;
  width: number;
  height: number;
  box: { left: number; top: number; right: number; bottom: number };
  /** Mean luminance of the solid product (0..1). */
  luminance: number;
}

/** The global light match applied to the product: out = in × gain + offset, per channel. Nothing else. */
export interface LightMatch {
  gain: [number, number, number];
  offset: [number, number, number];
}

/** An RGBA (straight alpha) layer and where its top-left corner sits on the canvas (may be off the canvas). */
export interface Placed {
  data: Buffer;
  width: number;
  height: number;
  left: number;
  top: number;
}

export const raw = (width: number, height: number, channels: 1 | 3 | 4) => ({ raw: { width, height, channels } });

/**
 * Scales the product (premultiplied resampling, so transparent pixels never bleed into the edge). At the layout the
 * product was made for it is drawn as it is: `data` is then the product's own buffer (shared memory after the
 * upscale), not a copy, and must not be written to.
 */
export async function scaledProduct(product: ProductSource, layout: Layout): Promise<Placed> {
  const boxWidth = product.box.right - product.box.left;
  const boxHeight = product.box.bottom - product.box.top;
  const sx = layout.product.width / boxWidth;
  const sy = layout.product.height / boxHeight;
  const width = Math.max(1, Math.round(product.width * sx));
  const height = Math.max(1, Math.round(product.height * sy));
  const left = Math.round(layout.product.left - product.box.left * sx);
  const top = Math.round(layout.product.top - product.box.top * sy);
  if (Math.abs(width - product.width) <= 1 && Math.abs(height - product.height) <= 1) {
    // The layout the upscale was sized for, give or take a rounded pixel: drawn as it is. A one-pixel enlargement
    // goes through libvips' affine path, whose half-pixel shift blurs fine print (measured on a bottle's printed
    // scale: edge correlation with the photo 0.96 → 0.85).
    return { data: product.rgba, width: product.width, height: product.height, left, top };
  }
  const data = await sharp(product.rgba, raw(product.width, product.height, 4))
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { data, width, height, left, top };
}

/** One image composed and encoded on the pixel thread (`composeImage`). */
export interface ImageRequest {
  backdrop?: Uint8Array;
  backdropSize: number;
  size: number;
  /** The product already scaled for this image (the base image reuses its backdrop's), or the pixel thread scales it. */
  product: { layer: Placed } | { source: ProductSource; layout: Layout };
  light: LightMatch;
  checkWhite: boolean;
  watermark?: Overlay;
  jpegQuality: number;
  keepPixels: boolean;
}

export interface ComposedImage {
  jpeg: Uint8Array;
  placement: { left: number; top: number; width: number; height: number };
  marketplace?: MarketplaceCheck;
  pixels?: { rgb: Uint8Array; coverage: Uint8Array };
}

/**
 * Canvases given back after their image was encoded, by size, for the next image of that size. There are as many as
 * images were composed at once (two or three on a worker), each ~17 MB at 2048².
 */
const canvasMemory = {
  free: new Map<number, CanvasMemory[]>(),
  take(size: number): CanvasMemory {
    return (
      this.free.get(size)?.pop() ?? { rgb: new Uint8Array(size * size * 3), coverage: new Uint8Array(size * size) }
    );
  },
  give(size: number, memory: CanvasMemory): void {
    const list = this.free.get(size) ?? [];
    list.push(memory);
    this.free.set(size, list);
  },
};

/**
 * The pixel thread's part of `placeProduct`: the product scaled, drawn over the backdrop (light match, marketplace
 * check, watermark: `composeCanvas`) and the canvas encoded, all there. Only the JPEG comes back: the canvas, the
 * scaled product and the coverage (~30 MB at 2048²) never reach the main thread, whose V8 heap holds every embedded
 * service and is marked again for each ~64 MB of buffers made on it.
 */
export async function composeImage(request: ImageRequest): Promise<ComposedImage> {
  const { size, product, keepPixels } = request;
  const scaled = 'layer' in product ? product.layer : await scaledProduct(product.source, product.layout);
  // Pixels that stay here are composed in memory used before: ~17 MB of fresh pages an image saved at 2048².
  const memory = keepPixels ? undefined : canvasMemory.take(size);
  const canvas = composeCanvas(
    {
      backdrop: request.backdrop,
      backdropSize: request.backdropSize,
      size,
      product: { ...scaled, light: request.light },
      checkWhite: request.checkWhite,
      watermark: request.watermark,
    },
    memory,
  );
  let jpeg: Buffer;
  try {
    jpeg = await encodeJpeg(asBuffer(canvas.rgb), size, size, request.jpegQuality);
  } finally {
    if (memory) canvasMemory.give(size, memory);
  }
  return {
    jpeg,
    placement: { left: scaled.left, top: scaled.top, width: scaled.width, height: scaled.height },
    marketplace: canvas.marketplace,
    pixels: keepPixels ? { rgb: canvas.rgb, coverage: canvas.coverage } : undefined,
  };
}

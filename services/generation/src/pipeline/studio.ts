import sharp from 'sharp';
import { isLookId, MARKETPLACE_LOOK, type StyleRecipe } from '../domain/styles';
import { placeProduct, renderBackdrop, type Backdrop, type ProductSource, type Rendered } from '../imaging/compose';
import { decodeRgb } from '../imaging/decode';
import { encodeJpeg, keepPhotoStructure, sharpenWithAlpha, watermarkOverlay } from '../imaging/finish';
import { decodeMattePng } from '../imaging/matte-png';
import { computeLayout } from '../imaging/scene';
import { SCALE, upscale4x } from '../imaging/upscale';
import type { ModelRuntime } from '../models/runtime';
import { cutOutProduct, cutOutWithMatte, type ProductCutout } from './product';

export interface StudioOptions {
  /** Long side of the finished images (≥ 2048). */
  outputSize: number;
  /** Long side of the first, unfixed image. */
  previewSize: number;
  /** Text of the free tier's watermark. */
  watermarkText: string;
  /** Long side the photo is decoded to for segmentation and the preview. */
  workSize?: number;
}

/** The largest product a recipe may ask for, as a share of the frame (`styleRecipeSchema`'s productScale). */
const MAX_PRODUCT_SCALE = 0.9;

export class MarketplaceRuleError extends Error {
  constructor(problems: string[]) {
    super(`The marketplace image did not meet the main-image rule: ${problems.join('; ')}`);
    this.name = 'MarketplaceRuleError';
  }
}

export interface RenderedImage {
  jpeg: Buffer;
  rendered: Rendered;
}

/** Timings of the stages, for the benchmark and the logs (milliseconds). */
export type StageTimes = Record<string, number>;

async function timed<T>(times: StageTimes | undefined, stage: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    if (times) times[stage] = (times[stage] ?? 0) + performance.now() - started;
  }
}

/**
 * The studio pipeline of one generation. The product is the same in every variation, so it is segmented once
 * (`prepare`) and super-resolved once (`upscale`); each variation is then one scene plus one composite at its
 * final size. Everything is deterministic for the same photo and recipe.
 */
export class StudioRenderer {
  constructor(
    private readonly runtime: ModelRuntime,
    private readonly options: StudioOptions,
  ) {}

  /**
   * The product cut out of the photo, once per generation. With a stored matte (made at analysis or corrected by
   * the seller, a grayscale PNG) the product is cut by it; without one (older records) it is segmented here.
   */
  async prepare(original: Buffer, times?: StageTimes, mattePng?: Buffer): Promise<ProductCutout> {
    const image = await timed(times, 'decode', () => decodeRgb(original, this.options.workSize ?? 1280));
    if (mattePng) {
      return timed(times, 'matte', async () =>
        cutOutWithMatte(image, await decodeMattePng(mattePng, image.width, image.height)),
      );
    }
    return timed(times, 'segment', async () => (await cutOutProduct(this.runtime.segmentation, image)).cutout);
  }

  /** The backdrop of a variation (scene, shadows, reflection) at preview size; the finished image scales it. */
  backdrop(product: ProductSource, recipe: StyleRecipe, times?: StageTimes): Promise<Backdrop> {
    return timed(times, 'backdrop', () => renderBackdrop(product, recipe, this.options.previewSize));
  }

  /** The base image shown first: the cut-out over the backdrop at preview size, no fixes. */
  async renderBase(product: ProductSource, backdrop: Backdrop, times?: StageTimes): Promise<RenderedImage> {
    const rendered = await timed(times, 'compose', () =>
      placeProduct(backdrop, product, this.options.previewSize, { checkWhite: isMarketplace(backdrop.recipe) }),
    );
    verify(backdrop.recipe, rendered);
    const jpeg = await timed(times, 'encode', () => encodeJpeg(rendered.rgb, rendered.width, rendered.height, 88));
    return { jpeg, rendered };
  }

  /**
   * Fix 1 and 2 for the whole generation: the product crop, reduced to what the largest of the generation's layouts
   * needs (`recipes`; any look when not given), goes through Real-ESRGAN ×4, held to the photo's own structure
   * (`keepPhotoStructure`), and a mild sharpen; its alpha is the full-resolution cut-out's. The model's cost grows
   * with the pixels it is given: a generation without marketplace white (products at ≤ 68% of the frame) sends
   * about two thirds of what one with it (85%) does.
   */
  async upscale(product: ProductCutout, times?: StageTimes, recipes?: readonly StyleRecipe[]): Promise<ProductSource> {
    const boxWidth = product.box.right - product.box.left;
    const boxHeight = product.box.bottom - product.box.top;
    const needed = this.largestProductSide(boxWidth, boxHeight, recipes) / SCALE;
    const reduce = Math.min(1, needed / Math.max(boxWidth, boxHeight));
    const width = Math.max(1, Math.round(product.width * reduce));
    const height = Math.max(1, Math.round(product.height * reduce));
    // The crop reduced to what the largest layout needs, split into RGB and alpha by libvips.
    const reduced = sharp(product.rgba, { raw: { width: product.width, height: product.height, channels: 4 } });
    if (reduce < 1) reduced.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
    const [rgb, coverage] = await Promise.all([
      reduced.clone().removeAlpha().raw().toBuffer(),
      reduced.clone().extractChannel(3).toColourspace('b-w').raw().toBuffer(),
    ]);
    const upscaled = await timed(times, 'upscale', async () =>
      keepPhotoStructure(await upscale4x(this.runtime.upscaler, { data: rgb, width, height }, { coverage }), product),
    );
    // The alpha from the full-resolution cut-out, enlarged to the new size; sharpened and joined back on by libvips.
    const alpha = await sharp(product.rgba, { raw: { width: product.width, height: product.height, channels: 4 } })
      .extractChannel(3)
      .resize(upscaled.width, upscaled.height, { fit: 'fill', kernel: 'cubic' })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const rgba = await timed(times, 'sharpen', () =>
      sharpenWithAlpha(upscaled.data, alpha, upscaled.width, upscaled.height),
    );
    const factor = (upscaled.width / product.width + upscaled.height / product.height) / 2;
    return {
      rgba,
      width: upscaled.width,
      height: upscaled.height,
      box: {
        left: product.box.left * factor,
        top: product.box.top * factor,
        right: product.box.right * factor,
        bottom: product.box.bottom * factor,
      },
      luminance: product.luminance,
    };
  }

  /** Long side of the product's box in the largest of these layouts at the output size. */
  private largestProductSide(boxWidth: number, boxHeight: number, recipes?: readonly StyleRecipe[]): number {
    const size = this.options.outputSize;
    let largest = 0;
    for (const recipe of recipes ?? []) {
      // A retired look fails its own image later; it asks for nothing here.
      if (!isLookId(recipe.look)) continue;
      const { product } = computeLayout(recipe, boxWidth, boxHeight, size);
      largest = Math.max(largest, product.width, product.height);
    }
    return largest > 0 ? largest : size * MAX_PRODUCT_SCALE;
  }

  /** The finished image: the upscaled product composed at full size, watermarked for free users. */
  async renderFinal(
    upscaled: ProductSource,
    backdrop: Backdrop,
    watermark: boolean,
    times?: StageTimes,
  ): Promise<RenderedImage> {
    const size = this.options.outputSize;
    const overlay = watermark ? await watermarkOverlay(size, this.options.watermarkText) : undefined;
    // Backdrop, product, check and watermark in one pass on the pixel thread; one encode.
    const rendered = await timed(times, 'compose', () =>
      placeProduct(backdrop, upscaled, size, { checkWhite: isMarketplace(backdrop.recipe), watermark: overlay }),
    );
    verify(backdrop.recipe, rendered);
    const jpeg = await timed(times, 'encode', () => encodeJpeg(rendered.rgb, size, size, 90));
    return { jpeg, rendered };
  }
}

const isMarketplace = (recipe: StyleRecipe) => recipe.look === MARKETPLACE_LOOK;

/** The marketplace rule holds on every marketplace output (its pixels before any watermark) before anything is stored. */
function verify(recipe: StyleRecipe, rendered: Rendered): void {
  if (!isMarketplace(recipe)) return;
  const problems = rendered.marketplace?.problems ?? ['the rule was not checked'];
  if (problems.length > 0) throw new MarketplaceRuleError(problems);
}

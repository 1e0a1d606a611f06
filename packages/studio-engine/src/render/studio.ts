import sharp from 'sharp';
import { isLookId, MARKETPLACE_LOOK, type StyleRecipe } from '../styles';
import { placeProduct, renderBackdrop, type Backdrop, type ProductSource, type Rendered } from './compose';
import { decodeRgb, type RgbImage } from '../kernels/decode';
import { watermarkOverlay } from './finish';
import { matteProductBox } from '../cutout/matte-png';
import { asBuffer } from '../threads/shared-memory';
import { pixelThread } from '../threads/pixel-thread';
import { computeLayout } from '../kernels/scene';
import { SCALE } from '../kernels/tiles';
import { upscale4x } from './upscale';
import type { ModelRuntime } from '../models/model-sessions';
import { cutOutProduct, cutOutWithMatte, type ProductCutout } from '../cutout/product';

export interface StudioOptions {
  /** Long side of the finished images (≥ 2048). */
  outputSize: number;
  /** Long side of the first, unfixed image. */
  previewSize: number;
  /** Text of the free tier's watermark. */
  watermarkText: string;
  /** Long side the photo is decoded to for segmentation and the preview. */
  workSize?: number;
  /** Each image also brings back its composed pixels (`Rendered.pixels`): for tests and inspection, not the service. */
  keepPixels?: boolean;
}

/** The largest product a recipe may ask for, as a share of the frame (`styleRecipeSchema`'s productScale). */
const MAX_PRODUCT_SCALE = 0.9;

/**
 * Enlargements up to this factor are made by lanczos3 and the sharpen alone; Real-ESRGAN runs only above it, where
 * the photo lacks the pixels. Measured on 8 test photos (`npm run bench:super-resolution`): up to 3× the resized
 * photo is the truer to the real detail (higher PSNR, higher correlation of the fine detail; the model leads on
 * correlation only from ~3.5×), but only up to 2× does it keep ~3/4 of the detail's energy (0.76; 0.58 at 2.5×, 0.44
 * at 3×), where the model keeps all of it. Above 2× the resize looks soft, so the model runs.
 */
export const MODEL_MIN_ENLARGEMENT = 2;

/** Longest side a photo is decoded at so its product reaches the size a layout needs (stored originals ≤ 4096). */
const MAX_DECODE_SIDE = 4096;

export class MarketplaceRuleError extends Error {
  constructor(problems: string[]) {
    super(`The marketplace image did not meet the main-image rule: ${problems.join('; ')}`);
    this.name = 'MarketplaceRuleError';
  }
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
   * the seller, a grayscale PNG) the product is cut by it, and the photo is decoded large enough for its product to
   * reach the largest of the generation's layouts (`recipes`), as far as the photo has the pixels: what the photo
   * holds is never thrown away to be invented again by the upscaler. Without one (older records) it is segmented
   * here at the work size.
   */
  async prepare(
    original: Buffer,
    times?: StageTimes,
    mattePng?: Buffer,
    recipes?: readonly StyleRecipe[],
  ): Promise<ProductCutout> {
    const workSize = this.options.workSize ?? 1280;
    if (!mattePng) {
      const image = await timed(times, 'decode', () => decodeRgb(original, workSize));
      return timed(times, 'segment', async () => (await cutOutProduct(this.runtime.segmentation, image)).cutout);
    }
    const found = await matteProductBox(mattePng);
    // The layout's product size depends on the box's shape only; the photo's long side that brings the box to it.
    const wanted = found
      ? Math.ceil(
          (this.largestProductSide(found.width, found.height, recipes) * found.longSide) /
            Math.max(found.width, found.height),
        )
      : workSize;
    const side = Math.min(MAX_DECODE_SIDE, Math.max(workSize, wanted));
    return timed(times, 'matte', () => cutOutWithMatte(original, mattePng, side));
  }

  /** The backdrop of a variation (scene, shadows, reflection) at preview size; the finished image scales it. */
  backdrop(product: ProductSource, recipe: StyleRecipe, times?: StageTimes): Promise<Backdrop> {
    return timed(times, 'backdrop', () => renderBackdrop(product, recipe, this.options.previewSize));
  }

  /**
   * The base image shown first: the cut-out over the backdrop at preview size, no fixes. It is served until the
   * finished image exists (and for good when that fails), so a free user's base carries the same watermark as the
   * finished image: otherwise the preview would be a clean copy of the paid result. The flag is optional only for
   * the benchmarks and the demo samples, which render bases for inspection.
   */
  renderBase(product: ProductSource, backdrop: Backdrop, times?: StageTimes, watermark = false): Promise<Rendered> {
    return this.compose(product, backdrop, this.options.previewSize, { watermark, jpegQuality: 88 }, times);
  }

  /**
   * Fix 1 and 2 for the whole generation: the product crop brought to what the largest of the generation's layouts
   * needs (`recipes`; any look when not given), then a mild sharpen; its alpha is the full-resolution cut-out's.
   * A photo with at least half the pixels needed is resized (lanczos3); one with fewer goes through Real-ESRGAN ×4,
   * reduced to a quarter of the size needed and held to the photo's own structure (`keepPhotoStructure`). The
   * model's cost grows with the pixels it is given. All but the model runs on the pixel thread (`detailProduct`).
   */
  async upscale(product: ProductCutout, times?: StageTimes, recipes?: readonly StyleRecipe[]): Promise<ProductSource> {
    const boxWidth = product.box.right - product.box.left;
    const boxHeight = product.box.bottom - product.box.top;
    const enlargement = this.largestProductSide(boxWidth, boxHeight, recipes) / Math.max(boxWidth, boxHeight);
    const detailed = await timed(times, 'upscale', async () => {
      const model = enlargement > MODEL_MIN_ENLARGEMENT ? await this.superResolve(product, enlargement) : undefined;
      // The model's output is handed over, not copied; the cut-out's pixels are shared memory (`cutoutFromMatte`).
      const pixels = { rgba: product.rgba, width: product.width, height: product.height };
      return pixelThread.run(
        'detailProduct',
        [pixels, enlargement, model],
        model ? [model.data.buffer as ArrayBuffer] : [],
      );
    });
    const factor = (detailed.width / product.width + detailed.height / product.height) / 2;
    return {
      rgba: asBuffer(detailed.rgba),
      width: detailed.width,
      height: detailed.height,
      box: {
        left: product.box.left * factor,
        top: product.box.top * factor,
        right: product.box.right * factor,
        bottom: product.box.bottom * factor,
      },
      luminance: product.luminance,
    };
  }

  /** Real-ESRGAN ×4 of the crop reduced to a quarter of the size needed (the model adds only finer detail). */
  private async superResolve(product: ProductCutout, enlargement: number): Promise<RgbImage> {
    const reduce = Math.min(1, enlargement / SCALE);
    const width = Math.max(1, Math.round(product.width * reduce));
    const height = Math.max(1, Math.round(product.height * reduce));
    const reduced = sharp(product.rgba, { raw: { width: product.width, height: product.height, channels: 4 } });
    if (reduce < 1) reduced.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
    const [rgb, coverage] = await Promise.all([
      reduced.clone().removeAlpha().raw().toBuffer(),
      reduced.clone().extractChannel(3).raw().toBuffer(),
    ]);
    return upscale4x(this.runtime.upscaler, { data: rgb, width, height }, { coverage });
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
  renderFinal(upscaled: ProductSource, backdrop: Backdrop, watermark: boolean, times?: StageTimes): Promise<Rendered> {
    return this.compose(upscaled, backdrop, this.options.outputSize, { watermark, jpegQuality: 90 }, times);
  }

  /**
   * Backdrop, product, marketplace check and (for free users) the watermark drawn at the canvas's size, in one pass
   * on the pixel thread, and one encode there: the base and the finished image differ only in size and quality.
   */
  private async compose(
    product: ProductSource,
    backdrop: Backdrop,
    size: number,
    options: { watermark: boolean; jpegQuality: number },
    times?: StageTimes,
  ): Promise<Rendered> {
    const overlay = options.watermark ? await watermarkOverlay(size, this.options.watermarkText) : undefined;
    const rendered = await timed(times, 'compose', () =>
      placeProduct(backdrop, product, size, {
        checkWhite: isMarketplace(backdrop.recipe),
        watermark: overlay,
        jpegQuality: options.jpegQuality,
        keepPixels: this.options.keepPixels,
      }),
    );
    verify(backdrop.recipe, rendered);
    return rendered;
  }
}

const isMarketplace = (recipe: StyleRecipe) => recipe.look === MARKETPLACE_LOOK;

/** The marketplace rule holds on every marketplace output (its pixels before any watermark) before anything is stored. */
function verify(recipe: StyleRecipe, rendered: Rendered): void {
  if (!isMarketplace(recipe)) return;
  const problems = rendered.marketplace?.problems ?? ['the rule was not checked'];
  if (problems.length > 0) throw new MarketplaceRuleError(problems);
}

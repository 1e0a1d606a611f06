import type {
  Cutout,
  GeneratedImage,
  Generation,
  GenerationStatusResponse,
  GenerationStatusValue,
  RecordItem,
} from '@productgen/contracts';
import type { CutoutDocument, GenerationDocument, GenerationStage, ImageDocument } from '../data/schemas';
import { isLowCutoutConfidence } from '@productgen/studio-engine';

/** The public status: everything before the worker picks the job up reads as pending. */
export function publicStatus(stage: GenerationStage): GenerationStatusValue {
  switch (stage) {
    case 'processing':
    case 'completed':
    case 'failed':
      return stage;
    default:
      return 'pending';
  }
}

/**
 * Image links are download routes on the API origin: the browser sends the session cookie with them (the gateway
 * accepts it on download routes), so no key or signature ever sits in a URL. `v` changes when the fixed image
 * replaces the base one, so browsers fetch it again.
 */
export function imageUrl(uuid: string, index: number, revision?: 'base' | 'final'): string {
  const path = `/download/${uuid}/image/${index}`;
  return revision ? `${path}?v=${revision}` : path;
}

export const ORIGINAL_INDEX = -1;

function imageView(generation: GenerationDocument, image: ImageDocument): GeneratedImage {
  return {
    id: `${generation.uuid}-${image.index}`,
    input_url: imageUrl(generation.uuid, ORIGINAL_INDEX),
    output_url: imageUrl(generation.uuid, image.index, image.final_key ? 'final' : 'base'),
    metadata: { fixes_done: [...image.fixes_done] },
  };
}

/** The text of the 410 answer to a download of an image whose refund was granted. */
export const REFUNDED_IMAGE_MESSAGE = 'This image was refunded, so it can no longer be downloaded.';

/** A refunded image is withdrawn: not listed, not in any zip, not served. */
export const isWithdrawn = (image: ImageDocument): boolean => image.withdrawn_at != null;

/**
 * The object a download of the image serves (the finished image, else its base); null when there is none. A free
 * user's base stored before bases carried the watermark is not served, so no clean copy leaves (while rendering, or
 * for good when the fixes failed).
 */
export function servedKey(generation: GenerationDocument, image: ImageDocument): string | null {
  if (isWithdrawn(image)) return null;
  if (image.final_key) return image.final_key;
  return generation.watermark && image.base_watermarked !== true ? null : image.base_key;
}

/** Images that can be shown: a base or finished image exists and was not withdrawn. */
export function visibleImages(generation: GenerationDocument): GeneratedImage[] {
  return generation.images
    .filter((image) => servedKey(generation, image) !== null)
    .map((image) => imageView(generation, image));
}

export function statusView(generation: GenerationDocument): GenerationStatusResponse {
  return {
    analyzed: generation.category !== null,
    images: visibleImages(generation),
    gen_error: generation.error,
    status: publicStatus(generation.stage),
    has_watermark: generation.started_at !== null && generation.watermark,
  };
}

/** The cut-out for the seller's brush: the stored mask (a grayscale PNG) with what the screen needs to know. */
export function cutoutView(generation: GenerationDocument, cutout: CutoutDocument, png: Buffer): Cutout {
  return {
    generation_uuid: generation.uuid,
    mask: png.toString('base64'),
    width: cutout.width,
    height: cutout.height,
    confidence: cutout.confidence,
    low_confidence: isLowCutoutConfidence(cutout.confidence),
    corrected: cutout.corrected,
  };
}

export function generationView(generation: GenerationDocument): Generation {
  return {
    id: generation.uuid,
    generation_uuid: generation.uuid,
    created_at: generation.created_at.toISOString(),
    images: visibleImages(generation),
    metadata: {
      category: generation.category,
      num_images: generation.num_images,
      status: publicStatus(generation.stage),
      error: generation.error,
    },
    original_image_url: imageUrl(generation.uuid, ORIGINAL_INDEX),
    original_filename: generation.original_filename,
  };
}

function thumbnailOf(generation: GenerationDocument): string | null {
  const shown = generation.images.find((image) => servedKey(generation, image) !== null);
  return shown ? imageUrl(generation.uuid, shown.index, shown.final_key ? 'final' : 'base') : null;
}

/**
 * Past creations: one row per single generation and one per batch job (its generations grouped), newest first.
 * A batch row is processing while any of its generations is, failed when all failed.
 */
export function recordsView(generations: readonly GenerationDocument[]): RecordItem[] {
  const rows: RecordItem[] = [];
  const batches = new Map<string, GenerationDocument[]>();
  for (const generation of generations) {
    if (generation.bulk_job_uuid) {
      const group = batches.get(generation.bulk_job_uuid);
      if (group) group.push(generation);
      else {
        batches.set(generation.bulk_job_uuid, [generation]);
        rows.push({
          type: 'bulk',
          id: generation.bulk_job_uuid,
          status: 'pending',
          category: null,
          num_images: 0,
          created_at: generation.created_at.toISOString(),
          thumbnail_url: null,
        });
      }
      continue;
    }
    rows.push({
      type: 'single',
      id: generation.uuid,
      status: publicStatus(generation.stage),
      category: generation.category,
      num_images: generation.num_images,
      created_at: generation.created_at.toISOString(),
      thumbnail_url: thumbnailOf(generation),
    });
  }
  return rows.map((row) => {
    if (row.type !== 'bulk') return row;
    const group = batches.get(row.id) ?? [];
    const statuses = group.map((generation) => publicStatus(generation.stage));
    const finished = statuses.every((status) => status === 'completed' || status === 'failed');
    const oldest = group.reduce((first, item) => (item.created_at < first.created_at ? item : first), group[0]!);
    return {
      ...row,
      status: !finished ? 'processing' : statuses.every((status) => status === 'failed') ? 'failed' : 'completed',
      num_images: group.reduce((sum, generation) => sum + generation.num_images, 0),
      created_at: oldest.created_at.toISOString(),
      thumbnail_url: group.map(thumbnailOf).find((url) => url !== null) ?? null,
    };
  });
}

/** Object keys are generated here only; nothing a client sends becomes part of one. */
export const objectKeys = {
  original: (uuid: string, extension: string) => `generations/${uuid}/original.${extension}`,
  /** The matte analysis cut the product out by. */
  analysisMatte: (uuid: string) => `generations/${uuid}/cutout/matte.png`,
  /**
   * A seller's corrected mask: a new key for every correction, so a correction that loses the race with Create can
   * never replace the mask a render job reads.
   */
  sellerMask: (uuid: string, revision: string) => `generations/${uuid}/cutout/mask-${revision}.png`,
  base: (uuid: string, index: number) => `generations/${uuid}/images/${index}/base.jpg`,
  final: (uuid: string, index: number) => `generations/${uuid}/images/${index}/final.jpg`,
};

/** The text shown for a generation some of whose images failed (their credits were given back). */
export function failureSummary(failed: number, total: number, firstError: string): string {
  if (failed === total) return `The images could not be made and your credits were given back. ${firstError}`;
  const credits = failed === 1 ? 'its credit was' : 'their credits were';
  return `${failed} of ${total} images could not be made and ${credits} given back. ${firstError}`;
}

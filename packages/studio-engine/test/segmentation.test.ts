import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { cutoutCoverage, maskIoU, buildSegmentationSet, type SetCase } from '@productgen/model-tools';
import { decodeRgb } from '../src/kernels/decode';
import { ensureModels } from '../src/models/model-store';
import { loadModelRuntime, type ModelRuntime } from '../src/models/model-sessions';
import { cutOutProduct } from '../src/cutout/product';
import { closeStudioThreads } from '../src/threads/studio-threads';
import { PHOTOS_DIR, SHARED_MODELS_DIR } from './helpers';

/*
 * The real cut-out (U²-Net small in two looks, then the matte refinement) on a handful of the benchmark's generated
 * hard cases: several items, white products, thin parts, an out-of-focus object in front. The floors are what the
 * pipeline reached on these cases, with a little room; `npm run bench:segmentation` measures the full set.
 */

jest.setTimeout(180_000);

// Reached (colour guided filter): several 0.979 / 0.934, white 0.993 / 0.995, thin 0.813 (a stem on a printed
// fabric) / 0.987, defocus 0.972; median 0.979.
const FLOORS: Record<string, number> = { several: 0.9, white: 0.95, thin: 0.78, defocus: 0.93 };
const MEDIAN_FLOOR = 0.95;

describe('the product cut-out on generated hard cases', () => {
  let runtime: ModelRuntime;
  let dir: string;
  let cases: SetCase[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'segmentation-'));
    runtime = await loadModelRuntime(await ensureModels(SHARED_MODELS_DIR, undefined));
    cases = await buildSegmentationSet(PHOTOS_DIR, dir, {
      seed: 7,
      counts: { several: 2, white: 2, thin: 2, defocus: 1 },
    });
  });
  afterAll(async () => {
    await closeStudioThreads();
    await rm(dir, { recursive: true, force: true });
  });

  test('every case is cut out close to its exact mask, with a confidence', async () => {
    const results: { name: string; iou: number; confidence: number | undefined }[] = [];
    for (const item of cases) {
      const image = await decodeRgb(await readFile(path.join(dir, item.photo)), 1024);
      const truth = await sharp(path.join(dir, item.mask)).toColourspace('b-w').raw().toBuffer();
      const { cutout, matte } = await cutOutProduct(runtime.segmentation, image);
      const iou = maskIoU(cutoutCoverage(cutout, image.width, image.height), truth);
      results.push({ name: item.name, iou: Number(iou.toFixed(3)), confidence: matte?.confidence });
    }
    console.log(results);
    const below = results.filter((result, index) => result.iou < FLOORS[cases[index]!.kind]!);
    expect(below).toEqual([]);
    const sorted = results.map((result) => result.iou).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeGreaterThanOrEqual(MEDIAN_FLOOR);
    for (const { confidence } of results) {
      expect(confidence).toBeGreaterThan(0);
      expect(confidence).toBeLessThanOrEqual(1);
    }
  });
});

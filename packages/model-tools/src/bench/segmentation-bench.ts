import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '@productgen/service-kit';
import { generationConfigSchema } from '@productgen/generation-service';
import {
  isLowCutoutConfidence,
  decodeRgb,
  findRepoRoot,
  describeInt8Kernels,
  loadConfiguredRuntime,
  cutOutProduct,
  closeStudioThreads,
} from '@productgen/studio-engine/internals';
import { loadSegmentationSet, type SetCase } from './segmentation-set';
import { cutoutCoverage, maskIoU } from './segmentation-score';
import { describeCpu } from '@productgen/host-cpu';

/*
 * npm run bench:segmentation — the product cut-out (cutOutProduct, as analysis runs it) on the labelled set of
 * segmentation-set.ts: IoU of the cut-out (alpha ≥ 0.5) against the exact mask per case, the median, the share below
 * 0.8, the worst cases, and the cost per cut-out (wall and CPU time of all threads). Prints figures; asserts nothing.
 * SEG_BENCH_OUT=<dir> also writes each case's predicted mask next to its photo, to look at.
 */

const repoRoot = findRepoRoot();
const photosDir = path.resolve(repoRoot, process.env.PHOTOS_DIR ?? '../shared/photos');
const setDir = path.resolve(repoRoot, process.env.SEG_SET_DIR ?? '.data/segmentation-set');
const outDir = process.env.SEG_BENCH_OUT ? path.resolve(process.env.SEG_BENCH_OUT) : undefined;
/** The long side analysis cuts out at (classify.ts). */
const WORK_SIDE = 1024;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function readMask(file: string): Promise<Uint8Array> {
  return sharp(file).toColourspace('b-w').raw().toBuffer();
}

interface Scored {
  name: string;
  kind: SetCase['kind'];
  iou: number;
  /** The matte's confidence (undefined when nothing was found). */
  confidence: number | undefined;
  wallMs: number;
  cpuMs: number;
}

async function main(): Promise<void> {
  console.log(describeCpu());
  const config = loadConfig(generationConfigSchema, process.env);
  const runtime = await loadConfiguredRuntime(config);
  console.log(describeInt8Kernels(runtime));
  const cases = await loadSegmentationSet(photosDir, setDir);
  if (outDir) await mkdir(outDir, { recursive: true });
  console.log(`segmentation set: ${cases.length} cases in ${path.relative(repoRoot, setDir)}`);

  // One warm-up run: the first pass starts the pixel thread and the model session.
  const first = await decodeRgb(await readFile(path.join(setDir, cases[0]!.photo)), WORK_SIDE);
  await cutOutProduct(runtime.segmentation, first);

  const scored: Scored[] = [];
  for (const item of cases) {
    const image = await decodeRgb(await readFile(path.join(setDir, item.photo)), WORK_SIDE);
    const truth = await readMask(path.join(setDir, item.mask));
    const wallStart = performance.now();
    const cpuStart = process.cpuUsage();
    const { cutout, matte } = await cutOutProduct(runtime.segmentation, image);
    const cpu = process.cpuUsage(cpuStart);
    const wallMs = performance.now() - wallStart;
    const predicted = cutoutCoverage(cutout, image.width, image.height);
    const iou = maskIoU(predicted, truth);
    scored.push({
      name: item.name,
      kind: item.kind,
      iou,
      confidence: matte?.confidence,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
    if (outDir)
      await sharp(predicted, { raw: { width: image.width, height: image.height, channels: 1 } })
        .png()
        .toFile(path.join(outDir, `${item.name}.predicted.png`));
  }

  const ious = scored.map((s) => s.iou);
  const below = scored.filter((s) => s.iou < 0.8);
  console.log(
    `median IoU ${median(ious).toFixed(3)}, mean ${(ious.reduce((a, b) => a + b, 0) / ious.length).toFixed(3)}`,
  );
  console.log(
    `below 0.8: ${below.length} of ${scored.length} (${((100 * below.length) / scored.length).toFixed(1)} %)`,
  );
  for (const kind of [...new Set(scored.map((s) => s.kind))]) {
    const ofKind = scored.filter((s) => s.kind === kind);
    const low = ofKind.filter((s) => s.iou < 0.8).length;
    console.log(
      `  ${kind.padEnd(10)} ${String(ofKind.length).padStart(3)} cases, median IoU ${median(ofKind.map((s) => s.iou)).toFixed(3)}, below 0.8: ${low}`,
    );
  }
  console.log(
    `cost per cut-out at ${WORK_SIDE} px: median wall ${median(scored.map((s) => s.wallMs)).toFixed(0)} ms, ` +
      `CPU (all threads) ${median(scored.map((s) => s.cpuMs)).toFixed(0)} ms`,
  );
  // Whether the confidence tells the cut-outs a seller should fix from the good ones (the create screen opens the
  // brush below LOW_CUTOUT_CONFIDENCE).
  for (const [label, group] of [
    ['IoU >= 0.9', scored.filter((s) => s.iou >= 0.9)],
    ['IoU < 0.9', scored.filter((s) => s.iou < 0.9)],
  ] as const) {
    const confidences = group.map((s) => s.confidence ?? 0);
    const flagged = confidences.filter(isLowCutoutConfidence).length;
    console.log(
      `confidence, ${label}: ${group.length} cases, median ${median(confidences).toFixed(2)}, flagged low ${flagged}`,
    );
  }
  console.log('worst cases:');
  for (const s of [...scored].sort((a, b) => a.iou - b.iou).slice(0, 10))
    console.log(`  ${s.iou.toFixed(3)}  confidence ${s.confidence?.toFixed(2) ?? '-'}  ${s.name}`);
  await closeStudioThreads();
}

main().catch(async (error: unknown) => {
  console.error(error);
  await closeStudioThreads();
  process.exitCode = 1;
});

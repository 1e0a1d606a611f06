import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import mongoose from 'mongoose';
import { createInProcessBroker, createInProcessBus } from '@productgen/bus';
import { startEmbeddedMongo } from '@productgen/embedded-mongo';
import { startEmbeddedS3 } from '@productgen/embedded-s3';
import { createLogger, createObjectStore, loadConfig } from '@productgen/service-kit';
import type { GenerationStatusResponse } from '@productgen/contracts';
import { createGenerationService, generationConfigSchema } from '@productgen/generation-service';
import {
  categories,
  type CategoryId,
  planVariations,
  findRepoRoot,
  closeStudioThreads,
  describeInt8Kernels,
  loadConfiguredRuntime,
  classifyProduct,
  StudioRenderer,
  type StageTimes,
} from '@productgen/studio-engine/internals';
import { behindGateway, TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { BillingFixture } from '@productgen/test-kit/billing-fixture';
import { describeCpu } from '@productgen/host-cpu';

/*
 * npm run bench:generation — on the photos in ../shared/photos/test: per-stage times, images per second with one
 * and two workers, CPU time per image of each stage, the main thread's event-loop delay during renders, and the
 * end-to-end times of a 5-image creation in embedded mode (first image visible, all fixes done). Prints figures;
 * asserts nothing.
 */

const repoRoot = findRepoRoot();
const photosDir = path.resolve(repoRoot, process.env.PHOTOS_DIR ?? '../shared/photos/test');
const logger = createLogger({ service: 'generation-bench', level: 'silent' });

async function listPhotos(): Promise<string[]> {
  const folders = await readdir(photosDir, { withFileTypes: true });
  const files: string[] = [];
  for (const folder of folders.filter((entry) => entry.isDirectory())) {
    for (const file of await readdir(path.join(photosDir, folder.name)))
      files.push(path.join(photosDir, folder.name, file));
  }
  return files.sort();
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function cpuTimed<T>(cpu: StageTimes, stage: string, work: () => Promise<T>): Promise<T> {
  const started = process.cpuUsage();
  try {
    return await work();
  } finally {
    const used = process.cpuUsage(started);
    cpu[stage] = (cpu[stage] ?? 0) + (used.user + used.system) / 1000;
  }
}

/**
 * The main thread's event-loop delay while `work` runs: what an HTTP request in the same process (embedded mode)
 * waits behind a render. Sampled every 10 ms; p99 and max in milliseconds.
 */
async function withLoopDelay<T>(label: string, work: () => Promise<T>): Promise<T> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    return await work();
  } finally {
    histogram.disable();
    const p99 = histogram.percentile(99) / 1e6;
    const max = histogram.max / 1e6;
    console.log(`  event-loop delay during ${label}: p99 ${ms(p99)}, max ${ms(max)}`);
  }
}

async function main(): Promise<void> {
  console.log(describeCpu());
  const config = loadConfig(generationConfigSchema, process.env);
  const runtime = await loadConfiguredRuntime(config);
  console.log(describeInt8Kernels(runtime));
  const studio = new StudioRenderer(runtime, {
    outputSize: config.OUTPUT_SIZE,
    previewSize: config.PREVIEW_SIZE,
    watermarkText: 'ProductGen',
  });
  const photos = await listPhotos();
  const limit = Number(process.env.BENCH_PHOTOS ?? photos.length);
  const chosen = photos.slice(0, limit);
  console.log(`generation benchmark: ${chosen.length} photos from ${photosDir}, output ${config.OUTPUT_SIZE}px\n`);

  /** One generation as the worker renders it, without storage: segment once, bases, one upscale, fixes. */
  async function renderGeneration(file: string, count: number, times?: StageTimes): Promise<void> {
    const bytes = await readFile(file);
    const started = performance.now();
    const guess = await classifyProduct(runtime, bytes);
    if (times) times.analyse = (times.analyse ?? 0) + performance.now() - started;
    const product = await studio.prepare(bytes, times);
    const category = (categories.find((entry) => entry.id === guess.category)?.id ?? 'other') as CategoryId;
    const plan = planVariations({ generationUuid: file, category, count });
    const upscaling = studio.upscale(
      product,
      times,
      plan.map((variation) => variation.recipe),
    );
    const backdrops = [];
    for (const variation of plan) {
      const backdrop = await studio.backdrop(product, variation.recipe, times);
      await studio.renderBase(product, backdrop, times);
      backdrops.push(backdrop);
    }
    const upscaled = await upscaling;
    for (const backdrop of backdrops) await studio.renderFinal(upscaled, backdrop, true, times);
  }

  // Warm-up: the first inference of each model pays for its lazy initialisation.
  await renderGeneration(chosen[0]!, 1);

  const stageRuns: StageTimes[] = [];
  await withLoopDelay('the per-stage runs', async () => {
    for (const file of chosen) {
      const times: StageTimes = {};
      await renderGeneration(file, 2, times);
      stageRuns.push(times);
    }
  });
  console.log('per-stage medians, one 2-image generation per photo (segment and upscale run once per generation):');
  // compose: product over the backdrop, the marketplace check and the watermark, in one pass; upscale: the model (when
  // it runs) and the product's detail on the pixel thread, its sharpen included.
  const stages = ['decode', 'analyse', 'segment', 'backdrop', 'compose', 'upscale'];
  for (const stage of stages) {
    const values = stageRuns.map((run) => run[stage] ?? 0);
    console.log(`  ${stage.padEnd(10)} ${ms(median(values)).padStart(8)}   (max ${ms(Math.max(...values))})`);
  }

  // CPU time is what the machine pays whatever else runs on it (wall times above grow with the load of a shared
  // machine): the process's user + system time over all its threads, stage by stage, one image at a time.
  const cpuRuns: StageTimes[] = [];
  for (const file of chosen) {
    const cpu: StageTimes = {};
    const product = await studio.prepare(await readFile(file));
    const plan = planVariations({ generationUuid: file, category: 'other', count: 2 });
    const upscaled = await cpuTimed(cpu, 'upscale+sharpen', () =>
      studio.upscale(
        product,
        undefined,
        plan.map((variation) => variation.recipe),
      ),
    );
    for (const variation of plan) {
      const backdrop = await cpuTimed(cpu, 'backdrop', () => studio.backdrop(product, variation.recipe));
      await cpuTimed(cpu, 'base', () => studio.renderBase(product, backdrop));
      await cpuTimed(cpu, 'final', () => studio.renderFinal(upscaled, backdrop, true));
    }
    cpuRuns.push(Object.fromEntries(Object.entries(cpu).map(([stage, value]) => [stage, value / plan.length])));
  }
  console.log('\nCPU time per image (process, all threads), medians over the photos:');
  for (const stage of ['backdrop', 'base', 'final', 'upscale+sharpen']) {
    console.log(`  ${stage.padEnd(16)} ${ms(median(cpuRuns.map((run) => run[stage] ?? 0))).padStart(8)}`);
  }
  const nonModel = cpuRuns.map((run) => (run.backdrop ?? 0) + (run.base ?? 0) + (run.final ?? 0));
  console.log(`  non-model stages (backdrop + base + final) ${ms(median(nonModel))} per image\n`);

  for (const workers of [1, 2]) {
    const queue = chosen.slice(0, Math.min(chosen.length, 8));
    const total = queue.length * 5;
    const started = performance.now();
    await withLoopDelay(`${workers} worker${workers > 1 ? 's' : ''}`, () =>
      Promise.all(
        Array.from({ length: workers }, async () => {
          for (let file = queue.shift(); file; file = queue.shift()) await renderGeneration(file, 5);
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${workers} worker${workers > 1 ? 's' : ' '}: ${total} finished images in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(2)} images/s`,
    );
  }

  await endToEnd(chosen.slice(0, Math.min(chosen.length, 5)));
  await closeStudioThreads();
}

/** Through the real service in embedded mode: embedded MongoDB and S3, the in-process bus, a billing stub. */
async function endToEnd(files: string[]): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'generation-bench-'));
  const mongo = await startEmbeddedMongo({ port: 0, dbPath: path.join(dir, 'mongo') });
  const s3 = await startEmbeddedS3({ dataDir: path.join(dir, 's3') });
  const broker = createInProcessBroker();
  const bus = createInProcessBus(broker, { logger });
  const billing = new BillingFixture();
  await billing.start();
  const connection = await mongoose.createConnection(mongo.url, { dbName: 'generation' }).asPromise();
  // Called directly, as the gateway would: its signed token (test-kit's secret) names the user of X-User-Id.
  const config = loadConfig(generationConfigSchema, {
    ...process.env,
    SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET,
    BILLING_URL: billing.url,
  });
  const service = await createGenerationService({
    config: { ...config, GENERATION_WORKER: 'in-process' },
    logger,
    mongo: connection,
    bus,
    objectStore: createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: 'bench',
    }),
    auth: { shopProfile: async () => ({ shop_context: [], brand_colors: [] }) },
  });
  await service.start();
  const server = http.createServer(behindGateway(service.app)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const userId = 'benchuser';
  billing.account(userId, 1000);
  const headers = { 'content-type': 'application/json', 'x-user-id': userId };
  const firstImage: number[] = [];
  const allDone: number[] = [];
  try {
    console.log('\nend to end, 5-image creation (POST /imageGenFromId until the status shows it):');
    await withLoopDelay('the end-to-end creations', async () => {
      for (const file of files) {
        const image = (await readFile(file)).toString('base64');
        const analysis = (await (
          await fetch(`${base}/image-gen/category`, { method: 'POST', headers, body: JSON.stringify({ image }) })
        ).json()) as {
          generation_uuid: string;
        };
        const started = performance.now();
        const created = await fetch(`${base}/imageGenFromId`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ id: analysis.generation_uuid, numGenerates: 5 }),
        });
        if (!created.ok) throw new Error(`create answered ${created.status}`);
        let first = 0;
        for (;;) {
          const status = (await (
            await fetch(`${base}/image-gen/status/${analysis.generation_uuid}`, { headers })
          ).json()) as GenerationStatusResponse;
          const now = performance.now() - started;
          if (!first && status.images.length > 0) first = now;
          if (
            status.status === 'completed' &&
            status.images.every((entry) => entry.metadata.fixes_done.every(Boolean))
          ) {
            firstImage.push(first);
            allDone.push(now);
            console.log(
              `  ${path.basename(file).padEnd(28)} first image ${ms(first).padStart(8)}   5 finished ${ms(now).padStart(8)}`,
            );
            break;
          }
          if (status.status === 'failed') throw new Error(`generation failed: ${status.gen_error}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    });
    console.log(
      `  median: first image ${ms(median(firstImage))} (goal 1000 ms), 5 finished ${ms(median(allDone))} (goal 4000 ms)`,
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await service.stop();
    await bus.close();
    await broker.close();
    await connection.close();
    await billing.stop();
    await s3.stop();
    await mongo.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

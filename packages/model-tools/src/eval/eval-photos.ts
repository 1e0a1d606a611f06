import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '@productgen/service-kit';
import { generationConfigSchema } from '@productgen/generation-service';
import { describeCpu } from '@productgen/host-cpu';
import {
  closeStudioThreads,
  describeInt8Kernels,
  encodeMattePng,
  findRepoRoot,
  hash32,
  isLowCutoutConfidence,
  loadConfiguredRuntime,
  nameProduct,
  showcaseRecipes,
  StudioRenderer,
  viewProduct,
} from '@productgen/studio-engine/internals';
import { judgedPhotos, judgeName, type JudgedPhoto, type NameVerdict } from './photo-set';

/*
 * npm run eval:photos — analysis on the real photos of ../shared/photos (the test set and the eval set of hard
 * cases), judged against photo-judgements.ts. For each photo: the name and category with its own file name and with a
 * camera's ("IMG_0001.jpg"), the cut-out confidence and whether it is flagged (the create screen opens the brush, a
 * batch holds it for the seller's check), and whether the cut-out was judged postable. Then a summary per hard class,
 * and contact sheets per class (original, cut-out on a checkerboard, two looks) in .data/eval/, to judge by eye.
 */

const TILE = 200;
const LABEL = 18;
const LOOKS_PER_PHOTO = 2;

interface Row {
  photo: JudgedPhoto;
  named: { object: string; category: string; verdict: NameVerdict };
  camera: { object: string; category: string; verdict: NameVerdict };
  cutoutConfidence: number | undefined;
  flagged: boolean;
  tiles: Buffer[];
}

const percent = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)}%` : '–');

async function checkerboard(): Promise<Buffer> {
  const cell = 10;
  const pixels = Buffer.alloc(TILE * TILE * 3);
  for (let y = 0; y < TILE; y += 1)
    for (let x = 0; x < TILE; x += 1)
      pixels.fill(
        (Math.floor(x / cell) + Math.floor(y / cell)) % 2 ? 204 : 255,
        (y * TILE + x) * 3,
        (y * TILE + x) * 3 + 3,
      );
  return sharp(pixels, { raw: { width: TILE, height: TILE, channels: 3 } })
    .png()
    .toBuffer();
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function caption(text: string, width: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${LABEL}"><rect width="100%" height="100%" fill="#fff"/>` +
      `<text x="3" y="13" font-size="12" font-family="DejaVu Sans, sans-serif" fill="#000">${escapeXml(text)}</text></svg>`,
  );
}

function summaryLine(name: string, rows: Row[]): string {
  const count = (test: (row: Row) => boolean) => rows.filter(test).length;
  const notPostable = rows.filter((row) => !row.photo.postable);
  const postable = rows.filter((row) => row.photo.postable);
  return [
    name.padEnd(16),
    String(rows.length).padStart(3),
    `category ${percent(
      count((r) => r.named.category === r.photo.category),
      rows.length,
    ).padStart(4)} / ${percent(
      count((r) => r.camera.category === r.photo.category),
      rows.length,
    ).padStart(4)}`,
    `names r/g/w ${count((r) => r.named.verdict === 'right')}/${count((r) => r.named.verdict === 'generic')}/${count((r) => r.named.verdict === 'wrong')}` +
      ` · ${count((r) => r.camera.verdict === 'right')}/${count((r) => r.camera.verdict === 'generic')}/${count((r) => r.camera.verdict === 'wrong')}`,
    `postable ${postable.length}/${rows.length}`,
    `flagged: ${notPostable.filter((r) => r.flagged).length}/${notPostable.length} of the poor, ${postable.filter((r) => r.flagged).length}/${postable.length} of the good`,
  ].join('  ');
}

async function main(): Promise<void> {
  console.log(describeCpu());
  const config = loadConfig(generationConfigSchema, process.env);
  const runtime = await loadConfiguredRuntime(config);
  console.log(describeInt8Kernels(runtime));
  const studio = new StudioRenderer(runtime, { outputSize: config.OUTPUT_SIZE, previewSize: 600, watermarkText: '' });
  const checker = await checkerboard();
  const rows: Row[] = [];
  for (const photo of await judgedPhotos()) {
    const bytes = await readFile(photo.absolutePath);
    const view = await viewProduct(runtime, bytes);
    const named = nameProduct(runtime, view, { fileName: photo.file });
    const camera = nameProduct(runtime, view, { fileName: 'IMG_0001.jpg' });
    const cutoutConfidence = view.matte?.confidence;
    const flagged = cutoutConfidence !== undefined && isLowCutoutConfidence(cutoutConfidence);
    // Cut by the analysis matte, as the service renders a creation.
    const matte = view.matte && (await encodeMattePng(view.matte.alpha));
    const product = await studio.prepare(bytes, undefined, matte);
    const cutout = await sharp(product.rgba, { raw: { width: product.width, height: product.height, channels: 4 } })
      .resize(TILE, TILE, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer();
    const tiles = [
      await sharp(bytes).rotate().resize(TILE, TILE, { fit: 'contain', background: '#444' }).png().toBuffer(),
      await sharp(checker)
        .composite([{ input: cutout }])
        .png()
        .toBuffer(),
    ];
    for (const recipe of showcaseRecipes(named.category, hash32(photo.file)).slice(0, LOOKS_PER_PHOTO)) {
      const { jpeg } = await studio.renderBase(product, await studio.backdrop(product, recipe));
      tiles.push(await sharp(jpeg).resize(TILE, TILE).png().toBuffer());
    }
    const row: Row = {
      photo,
      named: { object: named.object, category: named.category, verdict: judgeName(photo, named.object) },
      camera: { object: camera.object, category: camera.category, verdict: judgeName(photo, camera.object) },
      cutoutConfidence,
      flagged,
      tiles,
    };
    rows.push(row);
    const mark = (ok: boolean) => (ok ? '✓' : '✗');
    console.log(
      [
        photo.file.padEnd(48),
        `${named.object} [${row.named.verdict}] ${named.category} ${mark(named.category === photo.category)}`.padEnd(
          44,
        ),
        `camera: ${camera.object} [${row.camera.verdict}] ${camera.category} ${mark(camera.category === photo.category)}`.padEnd(
          52,
        ),
        `cut-out ${cutoutConfidence?.toFixed(2) ?? '–'} (views agree ${view.viewAgreement?.toFixed(2) ?? '–'})${flagged ? ' FLAGGED' : ''}${photo.postable ? '' : ` (judged poor: ${photo.why})`}`,
      ].join(' '),
    );
  }

  const classes = [...new Set(rows.flatMap((row) => row.photo.hard))].sort();
  console.log('\nper hard class (category: with file names / camera names; names right/generic/wrong: the same two)');
  for (const hard of classes)
    console.log(
      summaryLine(
        hard,
        rows.filter((row) => row.photo.hard.includes(hard)),
      ),
    );
  console.log(
    summaryLine(
      'test set',
      rows.filter((row) => row.photo.set === 'test'),
    ),
  );
  console.log(
    summaryLine(
      'eval set',
      rows.filter((row) => row.photo.set === 'eval'),
    ),
  );
  console.log(summaryLine('all', rows));

  const out = path.join(findRepoRoot(), '.data', 'eval');
  await mkdir(out, { recursive: true });
  const width = (2 + LOOKS_PER_PHOTO) * TILE;
  for (const hard of classes) {
    const members = rows.filter((row) => row.photo.hard.includes(hard));
    const composites: sharp.OverlayOptions[] = [];
    members.forEach((row, index) => {
      const top = index * (TILE + LABEL);
      const confidence = row.cutoutConfidence?.toFixed(2) ?? '–';
      const text = `${row.photo.file}  ${row.named.object} (${row.named.category})  cut-out ${confidence}${row.flagged ? ' FLAGGED' : ''}`;
      composites.push({ input: caption(text, width), left: 0, top });
      row.tiles.forEach((tile, column) => composites.push({ input: tile, left: column * TILE, top: top + LABEL }));
    });
    const file = path.join(out, `${hard}.png`);
    await sharp({ create: { width, height: members.length * (TILE + LABEL), channels: 3, background: '#ffffff' } })
      .composite(composites)
      .png({ compressionLevel: 6 })
      .toFile(file);
  }
  console.log(`\ncontact sheets (original, cut-out, ${LOOKS_PER_PHOTO} looks) per class: ${out}/<class>.png`);
  await closeStudioThreads();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

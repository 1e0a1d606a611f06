import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '@productgen/service-kit';
import { generationConfigSchema } from '@productgen/generation-service';
import {
  hash32,
  looks,
  showcaseRecipes,
  findRepoRoot,
  loadConfiguredRuntime,
  closeStudioThreads,
  classifyProduct,
  StudioRenderer,
} from '@productgen/studio-engine/internals';

/*
 * npm run contact-sheet [-- out.png]: every test photo (rows) through every look of its category family
 * (columns, in the order of `looks`), one image, for judging the style library by eye.
 */
const TILE = 200;

async function main(): Promise<void> {
  const repoRoot = findRepoRoot();
  const photosDir = path.resolve(repoRoot, process.env.PHOTOS_DIR ?? '../shared/photos/test');
  const out = path.resolve(process.argv[2] ?? path.join(repoRoot, '.data', 'contact-sheet.png'));
  const config = loadConfig(generationConfigSchema, process.env);
  const runtime = await loadConfiguredRuntime(config);
  const studio = new StudioRenderer(runtime, { outputSize: config.OUTPUT_SIZE, previewSize: 600, watermarkText: '' });
  const files: string[] = [];
  for (const folder of (await readdir(photosDir, { withFileTypes: true })).filter((entry) => entry.isDirectory())) {
    for (const file of await readdir(path.join(photosDir, folder.name)))
      files.push(path.join(photosDir, folder.name, file));
  }
  files.sort();
  const columns = looks.length + 1;
  const tiles: sharp.OverlayOptions[] = [];
  for (const [row, file] of files.entries()) {
    const bytes = await readFile(file);
    const guess = await classifyProduct(runtime, bytes);
    const product = await studio.prepare(bytes);
    tiles.push({ input: await sharp(bytes).resize(TILE, TILE, { fit: 'cover' }).toBuffer(), left: 0, top: row * TILE });
    for (const recipe of showcaseRecipes(guess.category, hash32(file))) {
      const column = looks.indexOf(recipe.look as (typeof looks)[number]) + 1;
      const { jpeg } = await studio.renderBase(product, await studio.backdrop(product, recipe));
      tiles.push({ input: await sharp(jpeg).resize(TILE, TILE).toBuffer(), left: column * TILE, top: row * TILE });
    }
    process.stdout.write(`${path.relative(photosDir, file)}: ${guess.category} (${guess.object})\n`);
  }
  await mkdir(path.dirname(out), { recursive: true });
  await sharp({ create: { width: columns * TILE, height: files.length * TILE, channels: 3, background: '#808080' } })
    .composite(tiles)
    .png({ compressionLevel: 6 })
    .toFile(out);
  console.log(
    `contact sheet: ${files.length} photos × ${looks.length} looks (columns: original, ${looks.join(', ')}) → ${out}`,
  );
  await closeStudioThreads();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

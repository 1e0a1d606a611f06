'use strict';
// The landing page's demo samples (SPEC §1: guitar, pot, shoes, mug, paper bag) and their results are real outputs
// of the studio engine (@productgen/studio-engine, its public API), made here at build from the licensed photos in
// ../shared/photos/demo. Rendering runs the segmentation model, so the results are kept in .demo-cache/ (git-ignored)
// under a key of the photo, the engine build (every compiled file) and this file; a later build copies them. Writes dist/demo/*.webp and
// dist/demo/samples.json, which the site build (src/site/build-site.tsx) puts into the routes manifest.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const appDir = path.resolve(__dirname, '..');
const repoRoot = path.resolve(appDir, '..');
const photosDir = path.resolve(process.env.DEMO_PHOTOS_DIR || path.join(repoRoot, '..', 'shared', 'photos'));
const cacheDir = path.join(appDir, '.demo-cache');
const outDir = path.join(appDir, 'dist', 'demo');
const engineDist = path.join(repoRoot, 'packages', 'studio-engine', 'dist');

const RESULTS_PER_SAMPLE = 5;
const PHOTO_SIZE = 800;
const THUMBNAIL_SIZE = 240;

/**
 * The five slots SPEC names. No photo of a pot or a paper bag has a licence that allows public use
 * (PHOTOS.md), so those slots use other licensed demo photos and say what they show.
 */
const SLOTS = [
  { id: 'guitar', slot: 'guitar', file: 'demo/guitar.jpg', shows: 'acoustic guitar' },
  { id: 'pot', slot: 'pot', file: 'demo/mug-3.jpg', shows: 'coffee mug seen from above (in place of a pot)' },
  { id: 'shoes', slot: 'shoes', file: 'demo/shoes.jpg', shows: 'pair of running shoes' },
  { id: 'mug', slot: 'mug', file: 'demo/mug.jpg', shows: 'black ceramic mug' },
  { id: 'paperbag', slot: 'paper bag', file: 'demo/shoes-2.jpg', shows: 'canvas sneakers (in place of a paper bag)' },
];

function sha(...parts) {
  const hash = crypto.createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex').slice(0, 16);
}

/** Every compiled file of the engine, in a fixed order: naming, layout and rendering all decide the results. */
function engineFiles() {
  return fs
    .readdirSync(engineDist, { recursive: true })
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => fs.readFileSync(path.join(engineDist, name)));
}

function requireEngine() {
  if (!fs.existsSync(path.join(engineDist, 'index.js'))) {
    throw new Error('The studio engine is not built: run `npm run build -w @productgen/studio-engine` first.');
  }
  return require('@productgen/studio-engine');
}

/** Renders the slot's results with the engine into `dir` (only when the cache has no copy for this key). */
async function renderResults(api, engine, photo, dir) {
  const sharp = require('sharp');
  const guess = await engine.analysePhoto(photo);
  const studio = engine.renderer;
  const product = await studio.prepare(photo);
  const recipes = api.showcaseRecipes(guess.category, api.hash32(dir)).slice(0, RESULTS_PER_SAMPLE);
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  for (const [index, recipe] of recipes.entries()) {
    const { jpeg } = await studio.renderBase(product, await studio.backdrop(product, recipe));
    await sharp(jpeg)
      .webp({ quality: 78 })
      .toFile(path.join(partial, `result-${index}.webp`));
  }
  fs.renameSync(partial, dir);
}

async function imageEntry(file) {
  const sharp = require('sharp');
  const { width, height } = await sharp(file).metadata();
  return { file: `demo/${path.basename(file)}`, width, height };
}

async function main() {
  const sharp = require('sharp');
  const manifest = JSON.parse(fs.readFileSync(path.join(photosDir, 'manifest.json'), 'utf8'));
  const api = requireEngine();
  const engineKey = sha(...engineFiles(), fs.readFileSync(__filename));
  let engine = null;
  fs.mkdirSync(outDir, { recursive: true });
  const samples = [];
  for (const slot of SLOTS) {
    const record = manifest.photos.find((photo) => photo.file === slot.file);
    if (!record || record.ok_for_public_commercial_use !== true) {
      throw new Error(`${slot.file} is not a demo photo licensed for public use (see PHOTOS.md)`);
    }
    const photo = fs.readFileSync(path.join(photosDir, slot.file));
    const cached = path.join(cacheDir, `${slot.id}-${sha(photo, engineKey)}`);
    if (!fs.existsSync(cached)) {
      engine ??= await api.createStudioEngine({
        models: {
          MODELS_DIR: path.join(repoRoot, 'models', 'cache'),
          SHARED_MODELS_DIR: path.join(repoRoot, '..', 'shared', 'models'),
        },
        render: { outputSize: 2048, previewSize: PHOTO_SIZE, watermarkText: '' },
      });
      console.log(`demo: rendering ${slot.file} with the studio engine`);
      await renderResults(api, engine, photo, cached);
    }
    const photoFile = path.join(outDir, `${slot.id}.webp`);
    const thumbnailFile = path.join(outDir, `${slot.id}-thumb.webp`);
    await sharp(photo).resize(PHOTO_SIZE, PHOTO_SIZE, { fit: 'inside' }).webp({ quality: 78 }).toFile(photoFile);
    await sharp(photo)
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'cover' })
      .webp({ quality: 72 })
      .toFile(thumbnailFile);
    const results = [];
    for (const name of fs.readdirSync(cached).sort()) {
      const target = path.join(outDir, `${slot.id}-${name}`);
      fs.copyFileSync(path.join(cached, name), target);
      results.push(await imageEntry(target));
    }
    samples.push({
      id: slot.id,
      slot: slot.slot,
      shows: slot.shows,
      photo: await imageEntry(photoFile),
      thumbnail: await imageEntry(thumbnailFile),
      results,
      // The licences ask for the credit to stay with the page.
      credit: `${record.attribution} (${String(record.licence).split(' (')[0]})`,
    });
  }
  fs.writeFileSync(path.join(outDir, 'samples.json'), `${JSON.stringify(samples, null, 2)}\n`);
  if (engine) await engine.close();
  console.log(
    `demo: ${samples.length} samples, ${samples.reduce((sum, sample) => sum + sample.results.length, 0)} results`,
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

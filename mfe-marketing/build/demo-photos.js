'use strict';
// The demo product photos are data, not code: they live outside the repository (../shared/photos by
// default, DEMO_PHOTOS_DIR to override) and are copied into dist/examples at build time, together with
// their attribution from the photo manifest (the licences ask for the credit to stay with the page).

const fs = require('node:fs');
const path = require('node:path');

const DEFAULT_PHOTOS_DIR = path.resolve(__dirname, '../../../shared/photos');

/**
 * @returns {{ dir: string, photos: Array<{ file: string, product: string, credit: string }> }}
 */
function readDemoPhotos(photosDir = process.env.DEMO_PHOTOS_DIR || DEFAULT_PHOTOS_DIR) {
  const manifestPath = path.join(photosDir, 'manifest.json');
  if (!fs.existsSync(manifestPath)) {
    console.warn(`demo photos: ${manifestPath} not found; /login shows no example image (set DEMO_PHOTOS_DIR)`);
    return { dir: photosDir, photos: [] };
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const photos = (manifest.photos || [])
    .filter((photo) => photo.set === 'demo' && photo.ok_for_public_commercial_use === true)
    .filter((photo) => fs.existsSync(path.join(photosDir, photo.file)))
    .map((photo) => ({
      file: path.basename(photo.file),
      source: photo.file,
      product: String(photo.product || 'product'),
      // The licence column can carry a long note in brackets; the page shows the licence name.
      credit: `${photo.attribution} (${String(photo.licence).split(' (')[0]})`,
    }));
  return { dir: photosDir, photos };
}

/** Copy patterns (copy-webpack-plugin) and the list the page receives through DefinePlugin. */
function demoPhotoBuildParts(photosDir) {
  const { dir, photos } = readDemoPhotos(photosDir);
  return {
    copyPatterns: photos.map((photo) => ({ from: path.join(dir, photo.source), to: `examples/${photo.file}` })),
    examples: photos.map(({ file, product, credit }) => ({ file: `examples/${file}`, product, credit })),
  };
}

module.exports = { readDemoPhotos, demoPhotoBuildParts };

'use strict';
// The before/after samples of the tool pages (SPEC §2: a random one of a fixed set of six), made at build by the
// tools' own code (src/algorithms, src/inference, compiled here with swc) and the same models, in onnxruntime-node,
// from the six public photos of ../shared/photos/demo (licences that allow publishing; the caption carries the
// attribution PHOTOS.md asks for).

const { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { transformFileSync } = require('@swc/core');
const ort = require('onnxruntime-node');
const sharp = require('sharp');

const toolDir = path.join(__dirname, '..');
// A cache folder every tool ignores (git, Prettier, ESLint, jest).
const libDir = path.join(toolDir, '..', 'node_modules', '.cache', 'mfe-tools-samples');
const PHOTOS_DIR = path.resolve(toolDir, '..', '..', 'shared', 'photos');
const SAMPLE_COUNT = 6;
/** Long side of the pictures on the page. */
const SIDE = 512;

/** Compiles the pure modules the samples need to CommonJS, so this script runs exactly the browser's code. */
function compileToolCode() {
  for (const folder of ['algorithms', 'inference']) {
    const from = path.join(toolDir, 'src', folder);
    mkdirSync(path.join(libDir, folder), { recursive: true });
    for (const file of readdirSync(from).filter((name) => name.endsWith('.ts'))) {
      const { code } = transformFileSync(path.join(from, file), {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      writeFileSync(path.join(libDir, folder, file.replace(/\.ts$/, '.js')), code);
    }
  }
  return {
    ...require(path.join(libDir, 'inference', 'segmentation.js')),
    ...require(path.join(libDir, 'inference', 'upscaling.js')),
    ...require(path.join(libDir, 'algorithms', 'patchmatch-inpaint.js')),
    ...require(path.join(libDir, 'algorithms', 'resize-plan.js')),
  };
}

async function runnerOf(modelFile) {
  const session = await ort.InferenceSession.create(modelFile);
  return async (input, dims) => {
    const outputs = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', input, dims) });
    const output = outputs[session.outputNames[0]];
    return { data: Float32Array.from(output.data), dims: output.dims };
  };
}

async function pixelsOf(file, longSide) {
  const { data, info } = await sharp(file)
    .resize(longSide, longSide, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data), width: info.width, height: info.height };
}

function webp(image, quality = 82) {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .webp({ quality })
    .toBuffer();
}

/**
 * @param {{ assetsDir: string, segmentationModel: string, upscalerModel: string }} options
 */
async function makeSamples({ assetsDir, segmentationModel, upscalerModel }) {
  const outDir = path.join(assetsDir, 'samples');
  const manifestFile = path.join(outDir, 'manifest.json');
  const inputs = [__filename, segmentationModel, upscalerModel].map((file) => statSync(file).mtimeMs);
  if (existsSync(manifestFile) && statSync(manifestFile).mtimeMs >= Math.max(...inputs)) return;

  const tools = compileToolCode();
  const segment = await runnerOf(segmentationModel);
  const upscale = await runnerOf(upscalerModel);
  const { photos } = JSON.parse(readFileSync(path.join(PHOTOS_DIR, 'manifest.json'), 'utf8'));
  const chosen = photos
    .filter((photo) => photo.set === 'demo' && photo.ok_for_public_commercial_use)
    .slice(0, SAMPLE_COUNT);
  if (chosen.length < SAMPLE_COUNT) throw new Error(`only ${chosen.length} publishable demo photos in ${PHOTOS_DIR}`);

  mkdirSync(outDir, { recursive: true });
  const manifest = { resizer: [], remover: [], upscaler: [], eraser: [] };
  const save = async (name, bytes) => {
    writeFileSync(path.join(outDir, name), bytes);
    return name;
  };
  for (const [index, photo] of chosen.entries()) {
    const file = path.join(PHOTOS_DIR, photo.file);
    const credit = `${photo.product} · photo: ${photo.attribution} (${photo.licence})`;
    const image = await pixelsOf(file, SIDE);
    const before = await save(`${index + 1}-before.webp`, await webp(image));

    // Resizer: the tool's size plan at its default maximum dimension.
    const target = tools.fitWithin(photo.width, photo.height, tools.DEFAULT_MAX_DIMENSION);
    manifest.resizer.push({
      before,
      after: await save(
        `${index + 1}-resized.webp`,
        await webp(await pixelsOf(file, Math.max(target.width, target.height))),
      ),
      caption: `${photo.width} × ${photo.height} → ${target.width} × ${target.height} px. ${credit}`,
    });

    // Background remover: u2netp and the full-size mask refinement, transparent background.
    const alpha = await tools.segmentProduct(image, segment);
    const cutOut = { ...image, data: tools.applyAlpha(image, alpha, null) };
    manifest.remover.push({
      before,
      after: await save(`${index + 1}-nobg.webp`, await webp(cutOut, 90)),
      caption: credit,
    });

    // Upscaler: a small copy (128 px) made 4× larger by Real-ESRGAN.
    const small = await pixelsOf(file, SIDE / 4);
    const upscaled = await tools.upscaleImage(small, upscale);
    manifest.upscaler.push({
      before: await save(`${index + 1}-small.webp`, await webp(small)),
      after: await save(`${index + 1}-upscaled.webp`, await webp(upscaled)),
      caption: `${small.width} × ${small.height} → ${upscaled.width} × ${upscaled.height} px. ${credit}`,
    });

    // Eraser: the product itself erased (its own mask), the space filled from the surrounding picture.
    const productMask = Uint8Array.from(alpha, (value) => (value >= 128 ? 1 : 0));
    const erased = { ...image, data: tools.inpaint(image.data, image.width, image.height, productMask) };
    manifest.eraser.push({
      before,
      after: await save(`${index + 1}-erased.webp`, await webp(erased)),
      caption: `The ${photo.product} erased. ${credit}`,
    });
    console.log(`mfe-tools: sample ${index + 1}/${SAMPLE_COUNT} (${photo.file})`);
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
}

module.exports = { makeSamples };

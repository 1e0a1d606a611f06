'use strict';
// Build step of mfe-tools (before webpack): puts the tools' models in .assets/models and their before/after
// samples in .assets/samples, where webpack copies them to dist/tool-assets/. The models come from MODELS_DIR (default models/cache, filled by `npm run models:fetch`
// from ../shared/models); u2netp's float16 file becomes float32 here. Model files are build output, never
// committed (.assets is git-ignored).

const { spawnSync } = require('node:child_process');
const { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { convertFloat16ModelToFloat32 } = require('./onnx-fp16-to-fp32');
const { makeSamples } = require('./make-samples');

const repoRoot = path.resolve(__dirname, '..', '..');
const modelsDir = path.resolve(repoRoot, process.env.MODELS_DIR || 'models/cache');
const assetsDir = path.join(__dirname, '..', '.assets');

const SOURCES = {
  segmentation: 'u2netp-fp16.onnx',
  upscaler: 'realesr-general-x4v3-int8-dequant-fp32.onnx',
};
/** Names the browser fetches (src/runtime/assets.ts MODEL_FILES). */
const OUTPUTS = {
  segmentation: 'models/u2netp-fp32.onnx',
  upscaler: 'models/realesr-general-x4v3-fp32.onnx',
};

function isFresh(output, input) {
  return existsSync(output) && statSync(output).mtimeMs >= statSync(input).mtimeMs;
}

function ensureSourceModels() {
  const missing = Object.values(SOURCES).filter((file) => !existsSync(path.join(modelsDir, file)));
  if (missing.length === 0) return;
  console.log(`mfe-tools: ${missing.join(', ')} missing in ${modelsDir}; running npm run models:fetch`);
  const result = spawnSync('npm', ['run', 'models:fetch', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error('npm run models:fetch failed: the tools cannot be built without their models');
}

function prepareModels() {
  ensureSourceModels();
  mkdirSync(path.join(assetsDir, 'models'), { recursive: true });
  const segmentationSource = path.join(modelsDir, SOURCES.segmentation);
  const segmentationOutput = path.join(assetsDir, OUTPUTS.segmentation);
  if (!isFresh(segmentationOutput, segmentationSource)) {
    const { bytes, widenedTensors, removedCasts } = convertFloat16ModelToFloat32(readFileSync(segmentationSource));
    writeFileSync(segmentationOutput, bytes);
    console.log(`mfe-tools: u2netp → float32 (${widenedTensors} tensors widened, ${removedCasts} casts removed)`);
  }
  const upscalerSource = path.join(modelsDir, SOURCES.upscaler);
  const upscalerOutput = path.join(assetsDir, OUTPUTS.upscaler);
  if (!isFresh(upscalerOutput, upscalerSource)) copyFileSync(upscalerSource, upscalerOutput);
}

module.exports = { assetsDir, OUTPUTS, SOURCES, modelsDir, prepareModels };

if (require.main === module) {
  (async () => {
    prepareModels();
    await makeSamples({
      assetsDir,
      segmentationModel: path.join(assetsDir, OUTPUTS.segmentation),
      upscalerModel: path.join(assetsDir, OUTPUTS.upscaler),
    });
  })().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}

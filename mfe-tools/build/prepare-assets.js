'use strict';
// Build step of mfe-tools (before webpack): puts the tools' models in .assets/models and their before/after
// samples in .assets/samples, where webpack copies them to dist/tool-assets/. The models come from MODELS_DIR (default models/cache, filled by `npm run models:fetch`
// from ../shared/models) as the studio loads them: the statically quantized int8 rewrites of u2netp and
// Real-ESRGAN that the studio engine derives from the files and checks against the manifest's sha256
// (onnxruntime-web's WASM runs their QLinearConv faster than the float32 models, and they are ~3.5× smaller),
// saved after onnxruntime's graph optimizations, all but the processor-specific one (preOptimized).
// Model files are build output, never committed (.assets is git-ignored).

const { spawnSync } = require('node:child_process');
const {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const ort = require('onnxruntime-node');
const { makeSamples } = require('./make-samples');

const repoRoot = path.resolve(__dirname, '..', '..');
const modelsDir = path.resolve(repoRoot, process.env.MODELS_DIR || 'models/cache');
const assetsDir = path.join(__dirname, '..', '.assets');

/** The manifest's files the tools' models are derived from (models/manifest.json, `derived`). */
const SOURCES = {
  segmentation: 'u2netp-fp16.onnx',
  upscaler: 'realesr-general-x4v3-int8.onnx',
};
/** Names the browser fetches (src/runtime/assets.ts MODEL_FILES). */
const OUTPUTS = {
  segmentation: 'models/u2netp-int8.onnx',
  upscaler: 'models/realesr-general-x4v3-int8-static.onnx',
};

/** Whether the output was made after its input and after this script last changed. */
function isFresh(output, input) {
  if (!existsSync(output)) return false;
  const made = statSync(output).mtimeMs;
  return made >= statSync(input).mtimeMs && made >= statSync(__filename).mtimeMs;
}

/**
 * The studio engine's built code, built here first when missing: an image build (scripts/docker/build-workspace.mjs)
 * builds only the tools' run-time dependencies, and the engine is needed only here, at build.
 */
function studioEngine() {
  if (!existsSync(path.join(repoRoot, 'packages', 'studio-engine', 'dist', 'index.js'))) {
    const workspaces = ['host-cpu', 'contracts', 'image-algorithms', 'studio-engine'].flatMap((name) => [
      '-w',
      `@productgen/${name}`,
    ]);
    const result = spawnSync('npm', ['run', 'build', '--silent', ...workspaces], { cwd: repoRoot, stdio: 'inherit' });
    if (result.status !== 0) throw new Error('building the studio engine failed: the tools take their models from it');
  }
  return require('@productgen/studio-engine');
}

/** The studio's own loader: verifies the model files and derives the int8 models, each checked against its sha256. */
async function studioModels() {
  const { ensureModels, ModelFilesMissingError } = studioEngine();
  try {
    return await ensureModels(modelsDir, undefined);
  } catch (error) {
    if (!(error instanceof ModelFilesMissingError)) throw error;
    console.log(`mfe-tools: ${error.problems.join('; ')}; running npm run models:fetch`);
    const result = spawnSync('npm', ['run', 'models:fetch', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
    if (result.status !== 0)
      throw new Error('npm run models:fetch failed: the tools cannot be built without their models');
    return ensureModels(modelsDir, undefined);
  }
}

/**
 * The model as onnxruntime saves it after all its graph optimizations (constants folded, each QDQ group fused into
 * QLinearConv, QLinearAdd, …, and QLinearConv laid out channels-last), so the browser's session takes the graph as
 * it is (graphOptimizationLevel 'disabled' in the AI worker): in headless Chromium's WASM, the u2netp session took
 * 0.6–3.4 s from an 'extended' file against 4.5–6.3 s from the QDQ file (loaded machine), and onnxruntime-web's
 * session from this file takes about a third less CPU again (the same outputs). None of it depends on the
 * processor, except the NCHWc layout (x86 blocks of 8 or 16 channels, its ReorderInput nodes unknown to the WASM
 * build), which is left out: the weights stay int8, and test/inference/shipped-models.test.ts runs the file in
 * onnxruntime-web.
 */
async function preOptimized(bytes) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mfe-tools-model-'));
  try {
    const optimizedModelFilePath = path.join(dir, 'model.onnx');
    const session = await ort.InferenceSession.create(bytes, {
      graphOptimizationLevel: 'all',
      optimizedModelFilePath,
      extra: { optimization: { disable_specified_optimizers: 'NchwcTransformer' } },
    });
    await session.release();
    return readFileSync(optimizedModelFilePath);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bytes of a tool's model as the browser loads them (`segmentation` or `upscaler`). */
async function toolModelBytes(files, model) {
  return preOptimized(await files.read(model));
}

async function prepareModels() {
  mkdirSync(path.join(assetsDir, 'models'), { recursive: true });
  // Files of earlier builds (the float32 models before) would be copied to dist too.
  const shipped = new Set(Object.values(OUTPUTS).map((output) => path.basename(output)));
  for (const file of readdirSync(path.join(assetsDir, 'models'))) {
    if (!shipped.has(file)) rmSync(path.join(assetsDir, 'models', file), { force: true });
  }
  const source = (model) => path.join(modelsDir, SOURCES[model]);
  const stale = Object.keys(OUTPUTS).filter(
    (model) => !existsSync(source(model)) || !isFresh(path.join(assetsDir, OUTPUTS[model]), source(model)),
  );
  if (stale.length === 0) return;
  const files = await studioModels();
  for (const model of stale) {
    writeFileSync(path.join(assetsDir, OUTPUTS[model]), await toolModelBytes(files, model));
    console.log(`mfe-tools: ${OUTPUTS[model]} (the studio's static int8 rewrite of ${SOURCES[model]})`);
  }
}

module.exports = { assetsDir, OUTPUTS, SOURCES, modelsDir, prepareModels, toolModelBytes };

if (require.main === module) {
  (async () => {
    await prepareModels();
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

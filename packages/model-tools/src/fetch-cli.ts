import { fetchModels, ModelFilesMissingError } from '@productgen/studio-engine/internals';

/** `npm run models:fetch`: fills MODELS_DIR (default models/cache) from SHARED_MODELS_DIR, else downloads. */
async function main(): Promise<void> {
  const modelsDir = process.env.MODELS_DIR || 'models/cache';
  const sharedDir = process.env.SHARED_MODELS_DIR || '../shared/models';
  const files = await fetchModels({ modelsDir, sharedDir, allowDownload: true, log: (line) => console.log(line) });
  console.log(`${files.entries.length} model files verified in ${files.dir}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ModelFilesMissingError ? error.message : String(error)}\n`);
  process.exit(1);
});

#!/usr/bin/env node
// Copies the model files of models/manifest.json into MODELS_DIR and checks each one's size and sha256; never
// downloads. In the models image (docker/models.Dockerfile, WORKDIR /app) the files are in models/cache; run from
// the repository (`npm run start:distributed` runs compose's models-init this way) they are where
// `npm run models:fetch` reads and writes them: models/cache, else ../shared/models.
//   MODELS_DIR=/models node scripts/docker/install-models.mjs     fill and check MODELS_DIR
//   node scripts/docker/install-models.mjs --check                check the source files only (the image build)
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['models/cache', '../shared/models'];
const { files } = JSON.parse(readFileSync('models/manifest.json', 'utf8'));

/** Why a file does not match its manifest entry, or undefined when it does. */
function problemWith(entry, file) {
  if (!existsSync(file)) return `${entry.file}: missing`;
  const { size } = statSync(file);
  if (size !== entry.size) return `${entry.file}: ${size} bytes, expected ${entry.size}`;
  const digest = createHash('sha256').update(readFileSync(file)).digest('hex');
  return digest === entry.sha256 ? undefined : `${entry.file}: sha256 ${digest}, expected ${entry.sha256}`;
}

/** The first source folder holding a good copy of the file. */
function sourceOf(entry) {
  const found = SOURCES.map((dir) => path.join(dir, entry.file)).find((file) => !problemWith(entry, file));
  if (!found) {
    throw new Error(`${entry.file}: no verified copy in ${SOURCES.join(' or ')} (run npm run models:fetch)`);
  }
  return found;
}

try {
  if (process.argv.includes('--check')) {
    for (const entry of files) sourceOf(entry);
    console.log(`${files.length} model files verified`);
  } else {
    const target = process.env.MODELS_DIR;
    if (!target) throw new Error('MODELS_DIR is required: the folder to fill');
    mkdirSync(target, { recursive: true });
    for (const entry of files) {
      const file = path.join(target, entry.file);
      if (!problemWith(entry, file)) continue;
      // Under a temporary name first: a copy cut short never sits under the real name.
      copyFileSync(sourceOf(entry), `${file}.part`);
      const problem = problemWith(entry, `${file}.part`);
      if (problem) throw new Error(`copy of ${problem}`);
      renameSync(`${file}.part`, file);
    }
    console.log(`${files.length} model files verified in ${target}`);
  }
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

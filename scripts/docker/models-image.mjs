#!/usr/bin/env node
// The models image: the files of models/manifest.json, built once (docker/models.Dockerfile) and copied by an init
// container (Kubernetes) or a one-shot container (compose) into the volume the generation pods mount read-only, so
// no pod downloads a model from a third party when it starts. Its tag is derived from the manifest, whose entries
// pin every file by sha256: another model set is another image, and the same manifest always names the same one.
//   node scripts/docker/models-image.mjs          prints the image reference, e.g. productgen/models:3f2a…
//   node scripts/docker/models-image.mjs --tag    prints the tag only
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const MODELS_MANIFEST = path.join(root, 'models', 'manifest.json');

/** `sha-` and the first 16 hex digits of the manifest's sha256. */
export function modelsImageTag(manifestText = readFileSync(MODELS_MANIFEST)) {
  return `sha-${createHash('sha256').update(manifestText).digest('hex').slice(0, 16)}`;
}

export const modelsImage = (registry = 'productgen') => `${registry}/models:${modelsImageTag()}`;

/** The command that fills MODELS_DIR from the image (scripts/docker/install-models.mjs, run from /app). */
export const INSTALL_MODELS_COMMAND = ['node', 'scripts/docker/install-models.mjs'];

if (process.argv[1] === new URL(import.meta.url).pathname) {
  console.log(process.argv.includes('--tag') ? modelsImageTag() : modelsImage());
}

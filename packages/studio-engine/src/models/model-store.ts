import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { quantizedSegmenter } from './segmentation-int8';
import { quantizedUpscaler } from './upscaler-int8';

/** The command that repairs a missing or damaged model folder; start-up errors name it. */
export const MODELS_FETCH_COMMAND = 'npm run models:fetch';

const manifestEntrySchema = z.object({
  name: z.string().min(1),
  file: z.string().regex(/^[A-Za-z0-9._-]+$/),
  task: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().positive(),
  licence: z.string(),
  attribution: z.string(),
  url: z.url().nullable(),
  note: z.string().optional(),
  /** The model is loaded as this rewrite of the file, made in memory at load and checked against its own hash. */
  derived: z
    .object({
      recipe: z.enum(['static-int8-qdq', 'u2netp-static-int8-qdq']),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      size: z.number().int().positive(),
    })
    .optional(),
});
export type ModelManifestEntry = z.infer<typeof manifestEntrySchema>;

const manifestSchema = z.object({ description: z.string(), files: z.array(manifestEntrySchema).min(1) });
export type ModelManifest = z.infer<typeof manifestSchema>;

export type ModelName = 'segmentation' | 'classifier' | 'upscaler' | 'labels';

export class ModelFilesMissingError extends Error {
  constructor(
    readonly modelsDir: string,
    readonly problems: string[],
  ) {
    super(
      `Model files in ${modelsDir} are missing or damaged:\n  ${problems.join('\n  ')}\n` +
        `Run \`${MODELS_FETCH_COMMAND}\` (with MODELS_DIR=${modelsDir} if you changed it) to fetch and verify them.`,
    );
    this.name = 'ModelFilesMissingError';
  }
}

/** The repository root: the nearest folder above this file that holds models/manifest.json. */
export function findRepoRoot(start = __dirname): string {
  let current = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(current, 'models', 'manifest.json'))) return current;
    const parent = path.dirname(current);
    if (parent === current) throw new Error(`models/manifest.json not found above ${start}`);
    current = parent;
  }
}

export async function loadManifest(repoRoot = findRepoRoot()): Promise<ModelManifest> {
  const text = await readFile(path.join(repoRoot, 'models', 'manifest.json'), 'utf8');
  return manifestSchema.parse(JSON.parse(text));
}

export function resolveFromRoot(dir: string, repoRoot = findRepoRoot()): string {
  return path.isAbsolute(dir) ? dir : path.resolve(repoRoot, dir);
}

/** Rewrites a file into the model that is loaded (see `derived` in the manifest); pure functions of the bytes. */
const RECIPES: Record<NonNullable<ModelManifestEntry['derived']>['recipe'], (bytes: Uint8Array) => Uint8Array> = {
  'static-int8-qdq': (bytes) => quantizedUpscaler(bytes),
  'u2netp-static-int8-qdq': (bytes) => quantizedSegmenter(bytes),
};

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Whether the file is there with the manifest's size and hash; a reason when not. */
async function problemWith(entry: ModelManifestEntry, file: string): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info) return `${entry.file}: missing`;
  if (info.size !== entry.size) return `${entry.file}: ${info.size} bytes, expected ${entry.size}`;
  const digest = await sha256Of(file);
  if (digest !== entry.sha256) return `${entry.file}: sha256 ${digest}, expected ${entry.sha256}`;
  return undefined;
}

/**
 * The bytes of a verified model file as they are loaded: the file itself, or its derived rewrite, whose hash is
 * checked here (a rewrite that no longer gives the manifest's bytes is a bug in the recipe, not a damaged file).
 */
async function modelBytes(entry: ModelManifestEntry, file: string): Promise<Uint8Array> {
  const bytes = await readFile(file);
  const { derived } = entry;
  if (!derived) return bytes;
  const output = RECIPES[derived.recipe](bytes);
  const digest = createHash('sha256').update(output).digest('hex');
  if (output.length !== derived.size || digest !== derived.sha256) {
    throw new Error(
      `${entry.file}: its ${derived.recipe} rewrite gave ${output.length} bytes with sha256 ${digest}, ` +
        `expected ${derived.size} bytes with ${derived.sha256}`,
    );
  }
  return output;
}

export interface ModelFiles {
  dir: string;
  pathOf(name: ModelName): string;
  /** What to load for a model: the file's bytes, or its derived rewrite when the manifest names one. */
  read(name: ModelName): Promise<Uint8Array>;
  entries: ModelManifestEntry[];
}

function filesIn(dir: string, manifest: ModelManifest): ModelFiles {
  const byName = new Map(manifest.files.map((entry) => [entry.name, entry]));
  const entryOf = (name: ModelName) => {
    const entry = byName.get(name);
    if (!entry) throw new Error(`models/manifest.json has no "${name}" entry`);
    return entry;
  };
  return {
    dir,
    entries: manifest.files,
    pathOf: (name) => path.join(dir, entryOf(name).file),
    read: (name) => modelBytes(entryOf(name), path.join(dir, entryOf(name).file)),
  };
}

export interface FetchModelsOptions {
  modelsDir: string;
  /** Copied from when a file is missing (checked against the same hash). */
  sharedDir?: string;
  /** Whether a file found nowhere locally may be downloaded from its upstream URL. */
  allowDownload?: boolean;
  log?: (line: string) => void;
  repoRoot?: string;
}

/** Writes via a temporary name, so a crash never leaves a half file under the real name. */
async function placeVerified(entry: ModelManifestEntry, target: string, fill: (tmp: string) => Promise<void>) {
  const tmp = `${target}.part-${process.pid}`;
  try {
    await fill(tmp);
    const problem = await problemWith(entry, tmp);
    if (problem) throw new Error(problem);
    await rename(tmp, target);
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * Makes MODELS_DIR hold every manifest file with the right hash: keeps good files, copies missing ones from the
 * shared folder, downloads the rest when allowed, and checks every derived rewrite against its hash (~15–200 ms each).
 * Throws ModelFilesMissingError listing what could not be had.
 */
export async function fetchModels(options: FetchModelsOptions): Promise<ModelFiles> {
  const repoRoot = options.repoRoot ?? findRepoRoot();
  const manifest = await loadManifest(repoRoot);
  const dir = resolveFromRoot(options.modelsDir, repoRoot);
  const shared = options.sharedDir ? resolveFromRoot(options.sharedDir, repoRoot) : undefined;
  const log = options.log ?? (() => undefined);
  await mkdir(dir, { recursive: true });
  const problems: string[] = [];
  for (const entry of manifest.files) {
    const target = path.join(dir, entry.file);
    if (!(await problemWith(entry, target))) continue;
    const sharedFile = shared ? path.join(shared, entry.file) : undefined;
    try {
      if (sharedFile && existsSync(sharedFile)) {
        await placeVerified(entry, target, (tmp) => copyFile(sharedFile, tmp));
        log(`${entry.file}: copied from ${shared}`);
        continue;
      }
      if (!options.allowDownload || !entry.url) {
        problems.push(
          entry.url
            ? `${entry.file}: missing (download from ${entry.url} is allowed only by ${MODELS_FETCH_COMMAND})`
            : `${entry.file}: missing and has no upstream URL (${entry.note ?? 'copy it from the shared model folder'})`,
        );
        continue;
      }
      const url = entry.url;
      await placeVerified(entry, target, async (tmp) => {
        const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(120_000) });
        if (!response.ok) throw new Error(`download from ${url} answered ${response.status}`);
        await writeFile(tmp, Buffer.from(await response.arrayBuffer()));
      });
      log(`${entry.file}: downloaded from ${url}`);
    } catch (error) {
      problems.push(`${entry.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const entry of manifest.files) {
    if (!entry.derived || problems.some((problem) => problem.startsWith(`${entry.file}:`))) continue;
    await modelBytes(entry, path.join(dir, entry.file)).catch((error: Error) => problems.push(error.message));
  }
  if (problems.length > 0) throw new ModelFilesMissingError(dir, problems);
  return filesIn(dir, manifest);
}

/** Start-up check: every file present and verified, filling from the shared folder (never the internet). */
export function ensureModels(modelsDir: string, sharedDir: string | undefined): Promise<ModelFiles> {
  return fetchModels({ modelsDir, sharedDir, allowDownload: false });
}

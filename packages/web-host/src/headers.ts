import path from 'node:path';
import type { Response } from 'express';

// Webpack's content-hashed chunks, and the hashed assets (mf-shared: `assets/[name].[contenthash][ext]`) the tools'
// inference starts from: onnxruntime's ~14 MB WebAssembly and the module script of its threads, which a returning
// visitor's browser then uses from its cache without first asking the server whether they changed (a round trip).
const HASHED_FILE = /\.[0-9a-f]{16,}\.(js|mjs|css|wasm)$/;
/** Entry documents are revalidated on every load, so a new registry entry or build is seen at once. */
const ENTRY_FILES = new Set([
  'index.html',
  'mf-manifest.json',
  'remoteEntry.js',
  'remotes.json',
  'runtime-config.json',
]);

/** Hashed chunks never change (a year, immutable); entry documents always revalidate; other files an hour. */
export function setCacheHeaders(res: Response, filePath: string): void {
  const name = path.basename(filePath);
  if (HASHED_FILE.test(name)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  else if (ENTRY_FILES.has(name)) res.setHeader('Cache-Control', 'no-cache');
  else res.setHeader('Cache-Control', 'public, max-age=3600');
}

/** Cross-origin isolation (SharedArrayBuffer for threaded in-browser inference) on the listed page paths. */
export function setIsolationHeaders(res: Response, pagePath: string, isolatedPaths: readonly string[]): void {
  const normalised = pagePath.length > 1 ? pagePath.replace(/\/+$/, '') : pagePath;
  if (!isolatedPaths.includes(normalised)) return;
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
}

#!/usr/bin/env node
// Completes package-lock.json with the other platforms' optional packages (e.g. @swc/core-darwin-arm64).
//
// Why: the registry these machines reach serves only this platform's builds, so `npm install` skips the other
// platforms' optional packages and leaves them out of the lock; `npm ci` then refuses that lock ("Missing: … from
// lock file"). An entry with the version and `optional: true` is all `npm ci` needs: it skips packages that are not
// for this platform (or that it cannot fetch) because they are optional. Runs after every `npm install` (root
// postinstall); a lock that is already complete is left untouched.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages ?? {};

/** Where npm would look for `dependency` from the package installed at `parentPath` (node's resolution order). */
function resolvedEntry(parentPath, dependency) {
  let base = parentPath;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${dependency}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dependency, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolvedEntry(path, dependency)) continue;
    const version = String(range).replace(/^[\^~=]/, '');
    // Top level when free, else beside the package that wants it.
    const topLevel = `node_modules/${dependency}`;
    const key = packages[topLevel] ? `${path}/node_modules/${dependency}` : topLevel;
    packages[key] = { version, optional: true };
    added += 1;
  }
}

if (added > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: added ${added} optional packages of other platforms to package-lock.json`);
}

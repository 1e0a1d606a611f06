#!/usr/bin/env node
// Type-checks the Node workspaces (root tsconfig.json) and every browser workspace with its own tsconfig.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const browserWorkspaces = [
  ...readdirSync(join(root, 'packages')).map((name) => join('packages', name)),
  ...readdirSync(root).filter((name) => name === 'shell' || name.startsWith('mfe-')),
].filter((dir) => existsSync(join(root, dir, 'tsconfig.json')));

let failed = false;
for (const project of ['tsconfig.json', ...browserWorkspaces.map((dir) => join(dir, 'tsconfig.json'))]) {
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  console.log(`${result.status === 0 ? 'ok  ' : 'FAIL'} ${project}`);
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);

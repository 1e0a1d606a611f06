#!/usr/bin/env node
// Type-checks the Node workspaces (root tsconfig.json) and every browser workspace with its own tsconfig.json, as
// many at once as the machine has cores (each tsc is one thread; one after another they took 100 s of CI's time on a
// slow 2-core machine). Each project's errors are printed together once its check ends.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const browserWorkspaces = [
  ...readdirSync(join(root, 'packages')).map((name) => join('packages', name)),
  ...readdirSync(root).filter((name) => name === 'shell' || name.startsWith('mfe-')),
].filter((dir) => existsSync(join(root, dir, 'tsconfig.json')));
const projects = ['tsconfig.json', ...browserWorkspaces.map((dir) => join(dir, 'tsconfig.json'))];

/** Runs tsc on one project; resolves with whether it passed, after printing what it said. */
function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      process.stdout.write(Buffer.concat(output));
      console.log(`${status === 0 ? 'ok  ' : 'FAIL'} ${project}`);
      resolve(status === 0);
    });
  });
}

const waiting = [...projects];
let failed = false;
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), projects.length) }, async () => {
    for (let project = waiting.shift(); project; project = waiting.shift()) {
      if (!(await check(project))) failed = true;
    }
  }),
);
process.exit(failed ? 1 : 0);

#!/usr/bin/env node
// Image build step (docker/*.Dockerfile): builds one workspace and the @productgen packages it depends on at run
// time, in dependency order, then copies what a container runs (each one's package.json and dist/) under an output
// folder laid out like the repository, so node_modules/@productgen/* links resolve inside the image.
//   node scripts/docker/build-workspace.mjs <workspace dir> <output dir>
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const [workspaceArg, outputArg] = process.argv.slice(2);
if (!workspaceArg || !outputArg) {
  console.error('usage: build-workspace.mjs <workspace dir, e.g. services/auth> <output dir>');
  process.exit(2);
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Every workspace of the root package.json, by package name. */
function workspacesByName() {
  const byName = new Map();
  for (const pattern of readJson(path.join(root, 'package.json')).workspaces) {
    const [parent, glob] = pattern.includes('/') ? pattern.split('/') : ['.', pattern];
    const names = readdirSync(path.join(root, parent));
    const matcher = new RegExp(`^${glob.replace('*', '.*')}$`);
    for (const name of names.filter((entry) => matcher.test(entry))) {
      const dir = path.join(parent, name);
      const manifest = path.join(root, dir, 'package.json');
      if (existsSync(manifest)) byName.set(readJson(manifest).name, dir);
    }
  }
  return byName;
}

/** The workspace and its run-time @productgen dependencies, dependencies first. */
function runtimeClosure(startDir, byName) {
  const ordered = [];
  const visit = (dir) => {
    if (ordered.includes(dir)) return;
    const { dependencies = {} } = readJson(path.join(root, dir, 'package.json'));
    for (const name of Object.keys(dependencies)) if (byName.has(name)) visit(byName.get(name));
    ordered.push(dir);
  };
  visit(startDir);
  return ordered;
}

const workspaceDir = path.normalize(workspaceArg);
const output = path.resolve(outputArg);
for (const dir of runtimeClosure(workspaceDir, workspacesByName())) {
  const manifest = readJson(path.join(root, dir, 'package.json'));
  if (manifest.scripts?.build) {
    console.log(`building ${manifest.name} (${dir})`);
    execFileSync('npm', ['run', 'build', '--silent', '-w', dir], { cwd: root, stdio: 'inherit' });
  }
  mkdirSync(path.join(output, dir), { recursive: true });
  cpSync(path.join(root, dir, 'package.json'), path.join(output, dir, 'package.json'));
  if (existsSync(path.join(root, dir, 'dist'))) {
    cpSync(path.join(root, dir, 'dist'), path.join(output, dir, 'dist'), { recursive: true });
  }
}

#!/usr/bin/env node
// The README's test command: every suite (jest projects; later the Playwright e2e run), then one summary line
// `N passed, N failed` over all of them, which CI reads. Exits non-zero when anything failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const outDir = mkdtempSync(join(tmpdir(), 'productgen-test-'));
const extraArgs = process.argv.slice(2);
let passed = 0;
let failed = 0;
let ok = true;

/** How long jest may take to exit once it has written its results before the run counts as hanging. */
const EXIT_GRACE_MS = 60_000;

/**
 * Runs jest and resolves with its exit status. Jest writes its results just before it exits; one still running a
 * minute later is held open by something a test left behind (a process, a socket, a timer). On 2 cores jest runs
 * every suite inside its own process (in band), so such a leak would hang CI until its time limit: the run is
 * ended instead and the leak counts as a failure.
 */
function spawnJest(outputFile) {
  const child = spawn(
    process.execPath,
    ['node_modules/jest/bin/jest.js', '--json', `--outputFile=${outputFile}`, ...extraArgs],
    { stdio: 'inherit', env: process.env },
  );
  let resultsWritten = false;
  const watch = setInterval(() => {
    if (resultsWritten || !existsSync(outputFile)) return;
    resultsWritten = true;
    setTimeout(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      console.error(`jest did not exit ${EXIT_GRACE_MS / 1000} s after its results: a test left something open`);
      child.kill('SIGKILL');
    }, EXIT_GRACE_MS).unref();
  }, 1000);
  return new Promise((resolve) => {
    child.once('exit', (status, signal) => {
      clearInterval(watch);
      resolve({ status, hung: signal === 'SIGKILL' });
    });
  });
}

async function runJest() {
  const outputFile = join(outDir, 'jest.json');
  const result = await spawnJest(outputFile);
  if (result.hung) {
    failed += 1;
    ok = false;
  }
  if (!existsSync(outputFile)) {
    console.error('jest wrote no results (exit code %s)', result.status);
    failed += 1;
    ok = false;
    return;
  }
  const report = JSON.parse(readFileSync(outputFile, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A suite that fails to run (syntax error, failing beforeAll) has no failed tests but must still fail the run.
  failed += report.numRuntimeErrorTestSuites;
  if (result.status !== 0 || !report.success) ok = false;
}

// The launcher, end-to-end and deployment tests run the built platform exactly as `npm start` does.
if (!process.env.SKIP_BUILD) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', env: process.env });
  if (build.status !== 0) {
    console.error('the build failed, so the tests that need it cannot run');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

await runJest();

console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);

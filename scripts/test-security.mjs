#!/usr/bin/env node
// `npm run test:security`: the security suites only (the shell host's upstream names, the web origins' headers and
// their CSP in Chromium, the marketing Markdown's sanitising, refused uploads read through fetch, the content
// editor's host and path checks, the dev features' development mode and Google's email_verified, compose MongoDB
// auth, sensitive query values kept out of logs, check-success's provider calls, logouts on every gateway replica, the
// HttpOnly session cookie and cross-site refusals, service-to-service authentication, limits shared by replicas),
// one row per check and the summary line `N passed, N failed` (and `, N skipped` when a check could not run). Like
// `npm test` it builds first (the Chromium and launcher checks run the built platform); SKIP_BUILD=1 skips that when
// the build is fresh. Exits non-zero when a check failed or a suite did not run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECURITY_SUITES, printSecurityTable, securityRows } from './security-checks.mjs';

const root = new URL('..', import.meta.url).pathname;

/** A run that has not ended this long after the slowest suite's own limits is stuck. */
const RUN_TIMEOUT_MS = 20 * 60_000;

if (!process.env.SKIP_BUILD) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('the build failed, so the security checks cannot run');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

// The logout check runs on real RabbitMQ too (the replicas as deployed, each with a connection of its own), at the
// broker CI starts (.ci/run); without one that run is a SKIP row below, never a silent omission.
const env = { ...process.env, AMQP_URL: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672' };
const outputFile = join(mkdtempSync(join(tmpdir(), 'productgen-security-')), 'jest.json');
const jest = spawn(
  process.execPath,
  [
    'node_modules/jest/bin/jest.js',
    '--json',
    `--outputFile=${outputFile}`,
    '--runTestsByPath',
    ...SECURITY_SUITES.map(([suite]) => suite),
  ],
  { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
);
const watchdog = setTimeout(() => {
  console.error(`the security checks did not end within ${RUN_TIMEOUT_MS / 60_000} minutes`);
  jest.kill('SIGKILL');
}, RUN_TIMEOUT_MS);
const exitCode = await new Promise((resolve) => jest.once('exit', (code) => resolve(code)));
clearTimeout(watchdog);

if (!existsSync(outputFile)) {
  console.error(`jest wrote no results (exit code ${exitCode})`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(outputFile, 'utf8'));
const { passed, failed, skipped } = printSecurityTable(securityRows(root, report.testResults));
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && exitCode === 0 ? 0 : 1);

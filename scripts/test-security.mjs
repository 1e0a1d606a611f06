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
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** Each suite with the area of the security work it checks. */
const SUITES = [
  ['packages/web-host/test/upstream-names.test.ts', 'shell host upstream names'],
  ['tests/integration/web-origin-headers.test.ts', 'web origin headers'],
  ['tests/e2e/web-origin-csp.test.ts', 'CSP in Chromium'],
  ['mfe-marketing/test/markdown-sanitising.test.ts', 'Markdown sanitising'],
  ['tests/integration/bulk-upload-refusals.test.ts', 'upload refusals'],
  ['packages/service-kit/test/request-drain.test.ts', 'upload refusals'],
  ['mfe-marketing/test/editor-servers.test.ts', 'content editor host and paths'],
  ['services/generation/test/free-tier-downloads.test.ts', 'free-tier watermark and refunds'],
  ['services/billing/test/refunds.test.ts', 'free-tier watermark and refunds'],
  ['services/generation/test/expensive-routes.test.ts', 'limits of expensive routes'],
  ['services/bulk/test/image-count-watch.test.ts', 'limits of expensive routes'],
  ['services/bulk/test/credit-check.test.ts', 'limits of expensive routes'],
  ['services/auth/test/site-fetch-limit.test.ts', 'limits of expensive routes'],
  ['packages/service-kit/test/config.test.ts', 'dev features only in development'],
  ['services/gateway/test/routing.test.ts', 'dev features only in development'],
  ['services/billing/test/dev-checkout-opt-in.test.ts', 'dev features only in development'],
  ['services/auth/test/sign-in.test.ts', 'sign-in (email_verified, dev provider)'],
  ['tests/deploy/validation.test.ts', 'deployment checks (compose MongoDB auth)'],
  ['tests/deploy/distributed-launcher.test.ts', 'start:distributed MongoDB credentials'],
  ['packages/service-kit/test/url-redaction.test.ts', 'sensitive query values in logs'],
  ['services/gateway/test/domain.test.ts', 'sensitive query values in logs'],
  ['services/billing/test/stripe-provider.test.ts', 'check-success provider calls'],
  ['tests/integration/session-revocation.test.ts', 'logout on every gateway replica'],
  ['services/gateway/test/browser-session.test.ts', 'session cookie and cross-site refusals'],
  ['tests/e2e/session-cookie.test.ts', 'session cookie in Chromium'],
  ['packages/service-kit/test/service-identity.test.ts', 'service-to-service authentication'],
  ['tests/integration/service-identity.test.ts', 'service-to-service authentication'],
  ['services/gateway/test/shared-limits.test.ts', 'limits shared by gateway replicas'],
];
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
    ...SUITES.map(([suite]) => suite),
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
const areaOf = new Map(SUITES.map(([suite, area]) => [join(root, suite), area]));
const rows = [];
const order = (suite) => SUITES.findIndex(([path]) => join(root, path) === suite.name);
for (const suite of [...report.testResults].sort((a, b) => order(a) - order(b))) {
  const area = areaOf.get(suite.name) ?? relative(root, suite.name);
  // A suite that failed outside its checks (a syntax error, a failing beforeAll) is one row of its own.
  if (suite.status === 'failed' && !suite.assertionResults.some((check) => check.status === 'failed')) {
    rows.push({ status: 'FAIL', area, check: `the suite failed: ${suite.message.trim().split('\n')[0]}` });
  }
  for (const check of suite.assertionResults) {
    const status = { passed: 'PASS', failed: 'FAIL' }[check.status] ?? 'SKIP';
    rows.push({ status, area, check: check.fullName });
  }
}
const missing = SUITES.filter(([suite]) => !report.testResults.some((result) => result.name === join(root, suite)));
for (const [, area] of missing) rows.push({ status: 'FAIL', area, check: 'the suite was not found' });

const areaWidth = Math.max(...rows.map((row) => row.area.length));
for (const row of rows) console.log(`${row.status}  ${row.area.padEnd(areaWidth)}  ${row.check}`);
const failed = rows.filter((row) => row.status === 'FAIL').length;
const skipped = rows.filter((row) => row.status === 'SKIP').length;
console.log(`${rows.length - failed - skipped} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && exitCode === 0 ? 0 : 1);

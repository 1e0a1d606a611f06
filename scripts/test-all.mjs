#!/usr/bin/env node
// The README's test command: every suite in lanes, fast to slow (each workspace's own tests, the integration suites,
// the deployment checks, the resilience rehearsal, the end-to-end run in Chromium), a line per lane, then one summary
// line `N passed, N failed` over all of them, which CI reads. Exits non-zero when anything failed.
// `npm test -- <jest arguments>` runs one jest run with those arguments instead (e.g. a path to narrow the run).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { printSecurityTable, securityRows } from './security-checks.mjs';

const outDir = mkdtempSync(join(tmpdir(), 'productgen-test-'));
const extraArgs = process.argv.slice(2);
let passed = 0;
let failed = 0;
let ok = true;
/** Every suite's results, for the security table. */
const testResults = [];

/** How long jest may take to exit once it has written its results before the run counts as hanging. */
const EXIT_GRACE_MS = 60_000;

/**
 * Runs jest and resolves with its exit status. Jest writes its results just before it exits; one still running a
 * minute later is held open by something a test left behind (a process, a socket, a timer). On 2 cores jest runs
 * every suite inside its own process (in band), so such a leak would hang CI until its time limit: the run is
 * ended instead and the leak counts as a failure.
 */
function spawnJest(outputFile, args) {
  const child = spawn(
    process.execPath,
    ['node_modules/jest/bin/jest.js', '--json', `--outputFile=${outputFile}`, ...args],
    {
      stdio: 'inherit',
      env: process.env,
    },
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

const root = process.cwd();
const under = (folders) => `^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${folders}/`;

/**
 * The lanes, fast to slow, each a jest run over the test files under its folders (jest's testPathPatterns: regular
 * expressions on the absolute path, anchored at the repository so a clone's own path cannot match).
 */
const LANES = [
  // Every core at once: most of these suites are one thread of JavaScript (jsdom screens, pure logic), and run one
  // after another they left a core idle (on a slow 2-core AVX2 CPU the lane took ~19 minutes in band, 14.4 with two
  // workers). The other lanes start platforms, brokers and browsers of their own and stay one suite at a time.
  { name: 'workspaces', pattern: under('(packages|services|tools|shell|mfe-[^/]+)'), workers: availableParallelism() },
  { name: 'integration', pattern: under('tests/integration') },
  { name: 'deployment', pattern: under('tests/deploy') },
  { name: 'resilience', pattern: under('tests/resilience') },
  { name: 'end-to-end', pattern: under('tests/e2e') },
];

/** Test files jest finds that no lane runs, or that two lanes would run (a new test folder needs its lane). */
function filesOutsideOneLane() {
  const listed = spawnSync(process.execPath, ['node_modules/jest/bin/jest.js', '--listTests', '--json'], {
    encoding: 'utf8',
    env: process.env,
  });
  const files = JSON.parse(listed.stdout);
  return files.filter((file) => LANES.filter((lane) => new RegExp(lane.pattern).test(file)).length !== 1);
}

/** One jest run: its counts join the totals; a line with its own counts when it is a lane. */
async function runJest(name, args) {
  const outputFile = join(outDir, `${name}.json`);
  const result = await spawnJest(outputFile, args);
  let lanePassed = 0;
  let laneFailed = 0;
  if (result.hung) laneFailed += 1;
  if (!existsSync(outputFile)) {
    console.error('jest wrote no results (exit code %s)', result.status);
    laneFailed += 1;
  } else {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    testResults.push(...report.testResults);
    lanePassed += report.numPassedTests;
    // A suite that fails to run (syntax error, failing beforeAll) has no failed tests but must still fail the run.
    laneFailed += report.numFailedTests + report.numRuntimeErrorTestSuites;
    if (result.status !== 0 || !report.success) ok = false;
  }
  if (laneFailed > 0) ok = false;
  passed += lanePassed;
  failed += laneFailed;
  return { lanePassed, laneFailed };
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

if (extraArgs.length > 0) {
  await runJest('jest', extraArgs);
} else {
  const summary = [];
  const stray = filesOutsideOneLane();
  if (stray.length > 0) {
    console.error(`test files in no lane or in two (scripts/test-all.mjs LANES):\n  ${stray.join('\n  ')}`);
    failed += stray.length;
    ok = false;
  }
  for (const lane of LANES) {
    console.log(`\n=== lane: ${lane.name} ===`);
    const workers = lane.workers ? [`--maxWorkers=${lane.workers}`] : [];
    const { lanePassed, laneFailed } = await runJest(lane.name, ['--passWithNoTests', ...workers, lane.pattern]);
    summary.push(`${lane.name}: ${lanePassed} passed, ${laneFailed} failed`);
  }
  // The security checks ran in their lanes (and count there); their table shows each of them by area.
  console.log('\n=== security checks (npm run test:security runs these alone) ===');
  const rows = securityRows(root, testResults);
  const security = printSecurityTable(rows);
  // A security suite that no lane ran is a failure of its own (the lanes' counts cannot show it).
  const notRun = rows.filter((row) => row.missing).length;
  failed += notRun;
  if (notRun > 0) ok = false;
  summary.push(`security checks, within the lanes: ${security.passed} passed, ${security.failed} failed`);
  console.log(`\n${summary.join('\n')}`);
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);

// The security checks of issue 32: which suites they are, and their table (one row per check). Both
// `npm run test:security` (those suites alone) and `npm test` (every lane, as CI runs it) print the table from jest's
// JSON results, so CI shows every security check without running a suite twice.
import { join, relative } from 'node:path';

/** Each suite with the area of the security work it checks. */
export const SECURITY_SUITES = [
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
  ['tests/integration/foreign-ids.test.ts', "another user's ids (every id-bearing route)"],
  ['services/gateway/test/shared-limits.test.ts', 'limits shared by gateway replicas'],
];
/**
 * The table's rows from jest's JSON results (one or several runs): PASS / FAIL / SKIP, the area, the check. A suite
 * that failed outside its checks (a syntax error, a failing beforeAll) is a row of its own; a suite no run reported
 * is a FAIL row.
 */
export function securityRows(root, testResults) {
  const suitePath = (suite) => join(root, suite);
  const areaOf = new Map(SECURITY_SUITES.map(([suite, area]) => [suitePath(suite), area]));
  const order = (result) => SECURITY_SUITES.findIndex(([suite]) => suitePath(suite) === result.name);
  const rows = [];
  const ours = testResults.filter((result) => areaOf.has(result.name)).sort((a, b) => order(a) - order(b));
  for (const suite of ours) {
    const area = areaOf.get(suite.name) ?? relative(root, suite.name);
    if (suite.status === 'failed' && !suite.assertionResults.some((check) => check.status === 'failed')) {
      rows.push({ status: 'FAIL', area, check: `the suite failed: ${suite.message.trim().split('\n')[0]}` });
    }
    for (const check of suite.assertionResults) {
      const status = { passed: 'PASS', failed: 'FAIL' }[check.status] ?? 'SKIP';
      rows.push({ status, area, check: check.fullName });
    }
  }
  const missing = SECURITY_SUITES.filter(([suite]) => !ours.some((result) => result.name === suitePath(suite)));
  for (const [, area] of missing) rows.push({ status: 'FAIL', area, check: 'the suite was not found', missing: true });
  return rows;
}

/** Prints the rows and returns their counts. */
export function printSecurityTable(rows) {
  const areaWidth = Math.max(...rows.map((row) => row.area.length));
  for (const row of rows) console.log(`${row.status}  ${row.area.padEnd(areaWidth)}  ${row.check}`);
  const failed = rows.filter((row) => row.status === 'FAIL').length;
  const skipped = rows.filter((row) => row.status === 'SKIP').length;
  return { passed: rows.length - failed - skipped, failed, skipped };
}

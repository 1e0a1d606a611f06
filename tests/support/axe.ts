import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

/** An axe-core violation as the tests report it: the rule, its impact and where it was found. */
export interface AccessibilityViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

interface AxeGlobals {
  axe: {
    run(
      context: unknown,
      options: unknown,
    ): Promise<{
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
    }>;
  };
  document: unknown;
}

let axeSource: Promise<string> | undefined;

/**
 * Runs axe-core (from node_modules, never downloaded) on the page as it is now and answers its serious and critical
 * violations. The script is evaluated through the DevTools protocol, so the page's Content-Security-Policy, which
 * rightly refuses injected scripts, does not have to be loosened for the check.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(await axeSource);
  return page.evaluate(async () => {
    const globals = globalThis as unknown as AxeGlobals;
    const { violations } = await globals.axe.run(globals.document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
  });
}

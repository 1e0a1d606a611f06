import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { startPlatformProcess, type PlatformProcess } from '@productgen/test-kit/platform-process';

/** What one browser suite works with; set before its first test runs. */
export interface PlatformSuite {
  platform: PlatformProcess;
  browser: Browser;
  /** A scratch folder for the files the suite makes and downloads. */
  workDir: string;
}

/**
 * Starts the platform as `npm start` runs it (on its own data folder) and one Chromium before a suite's tests, and
 * stops both and removes the folders after them.
 */
export function platformInChromium(label: string): PlatformSuite {
  const suite = {} as PlatformSuite;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), `productgen-e2e-${label}-`));
    suite.workDir = await mkdtemp(path.join(tmpdir(), `productgen-e2e-${label}-files-`));
    suite.platform = await startPlatformProcess({ dataDir, startTimeoutMs: 150_000 });
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.platform?.stop('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (suite.workDir) await rm(suite.workDir, { recursive: true, force: true });
  });
  return suite;
}

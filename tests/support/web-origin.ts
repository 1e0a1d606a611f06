import path from 'node:path';
import { createWebApp } from '../../packages/devstack/src/web';
import { repoRoot } from '@productgen/test-kit/platform-process';

/**
 * The platform's web origin (the built shell and a web root of published microfrontends) on its own: its runtime
 * config names an API nobody answers, for tests of what the web origin itself serves.
 */
export function standaloneWebApp(webRoot: string, trackingScripts: Record<string, string> = {}) {
  return createWebApp({
    shellDistDir: path.join(repoRoot, 'shell', 'dist'),
    webRoot,
    runtimeConfig: {
      apiBaseUrl: 'http://127.0.0.1:1',
      googleClientId: '',
      productName: 'ProductGen',
      devIdentityProvider: true,
      trackingScripts,
    },
  });
}

// Build-time only (webpack.chrome.config.js bundles it for Node): the top bar and footer as a signed-out visitor
// first sees them, written into index.html so every page shows its chrome, styled, before any script runs. The shell
// renders its live chrome over this markup when the platform starts (shell/src/start.tsx).
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createPlatformClient, PlatformProvider } from '@productgen/platform-client';
import type { RuntimeConfig } from '@productgen/mf-shared';
import { Footer } from './Footer';
import { ShellConfigContext } from './shell-config';
import { TopBar } from './TopBar';

/** Nobody is signed in at build time; the product name is the default one (the live chrome shows the configured). */
const BUILD_TIME_CONFIG: RuntimeConfig = {
  apiBaseUrl: 'http://127.0.0.1',
  googleClientId: '',
  productName: 'ProductGen',
  devIdentityProvider: false,
  trackingScripts: {},
};

export function renderStaticChrome(): { topBar: string; footer: string } {
  const client = createPlatformClient({ apiBaseUrl: BUILD_TIME_CONFIG.apiBaseUrl, logger: { warn: () => {} } });
  const render = (element: ReactElement) =>
    renderToStaticMarkup(
      <ShellConfigContext.Provider value={BUILD_TIME_CONFIG}>
        <PlatformProvider client={client}>{element}</PlatformProvider>
      </ShellConfigContext.Provider>,
    );
  return { topBar: render(<TopBar />), footer: render(<Footer />) };
}

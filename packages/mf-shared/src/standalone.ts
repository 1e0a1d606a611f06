import { registerApplication, start, type LifeCycles } from 'single-spa';
import { configurePlatformClient } from '@productgen/platform-client';
import { loadRuntimeConfig } from './runtime-config';
import { setSiteName } from './page-meta';

/**
 * `npm start` of a microfrontend: the app alone on the page (no shell chrome), with the platform client
 * configured from the dev server's /runtime-config.json, so it can be developed and tried in isolation.
 */
export async function startStandalone(
  name: string,
  lifecycles: LifeCycles<{ domElement: HTMLElement }>,
): Promise<void> {
  const config = await loadRuntimeConfig();
  setSiteName(config.productName);
  configurePlatformClient({ apiBaseUrl: config.apiBaseUrl, productName: config.productName });
  const domElement = document.getElementById('root') ?? document.body;
  registerApplication({ name, app: lifecycles, activeWhen: () => true, customProps: { domElement } });
  start({ urlRerouteOnly: true });
}

import { createMfeLifecycles } from '@productgen/mf-shared';
import { loadSiteIndex, readEmbeddedSiteData } from './content/site-data';
import { routes } from './routes';

// The module the shell loads as "mfe_marketing/app": single-spa lifecycles around this app's react-router. A
// prerendered document already holds the page and its data, so the first mount hydrates it.
const lifecycles = createMfeLifecycles({ name: 'mfe_marketing', routes, hydrate: true });

async function loadContentIndex(): Promise<void> {
  readEmbeddedSiteData();
  await loadSiteIndex();
}

export const bootstrap = [loadContentIndex, lifecycles.bootstrap].flat();
export const { mount, unmount } = lifecycles;

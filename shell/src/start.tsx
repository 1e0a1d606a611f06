import { createRoot } from 'react-dom/client';
import { registerApplication, start } from 'single-spa';
import { configurePlatformClient } from '@productgen/platform-client';
import {
  appContainerId,
  loadPublishedRoutes,
  loadStartupConfig,
  MFE_NAMES,
  OopsScreen,
  ROUTE_TABLE,
  routeOwner,
  setSiteName,
} from '@productgen/mf-shared';
import { ChromeProviders, ChromeWithSignIn } from './chrome/Chrome';
import { Footer } from './chrome/Footer';
import { TopBar } from './chrome/TopBar';
import { linkCrossesIsolation, loadIsolationChangesAsDocuments } from './cross-origin-isolation';
import { interceptLinkClicks } from './link-interception';
import { NOT_FOUND_APP, notFoundLifecycles } from './not-found';
import { createPageViewTracker } from './page-views';
import { loadTrackingScripts } from './tracking-scripts';
import { createRemoteApplication } from './remote-application';
import { makeRemoteLoader, registerRemoteRegistry } from './remotes';

function requireElement(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The shell's index.html has no #${id}`);
  return element;
}

/** Each application mounts into its own container inside <main>, so a slow unmount never clobbers the next page. */
function appContainer(main: HTMLElement, name: string): HTMLElement {
  const id = appContainerId(name);
  let container = document.getElementById(id);
  if (!container) {
    container = document.createElement('div');
    container.id = id;
    main.appendChild(container);
  }
  return container;
}

export async function startShell(): Promise<void> {
  const main = requireElement('pg-main');
  let startup: Awaited<ReturnType<typeof loadStartupConfig>>;
  try {
    startup = await loadStartupConfig();
  } catch (error) {
    createRoot(main).render(<OopsScreen error={error} />);
    return;
  }
  const { config, registry } = startup;
  // The static routes plus the ones the content-routed apps (marketing) publish with their build.
  const routeTable = [...ROUTE_TABLE, ...(await loadPublishedRoutes(registry))];

  setSiteName(config.productName);
  const client = configurePlatformClient({ apiBaseUrl: config.apiBaseUrl, productName: config.productName });
  client.captureReferralFromUrl(window.location.href);
  registerRemoteRegistry(registry);

  createRoot(requireElement('pg-top-bar')).render(
    <ChromeWithSignIn config={config}>
      <TopBar />
    </ChromeWithSignIn>,
  );
  createRoot(requireElement('pg-footer')).render(
    <ChromeProviders config={config}>
      <Footer />
    </ChromeProviders>,
  );

  for (const name of MFE_NAMES) {
    registerApplication({
      name,
      app: createRemoteApplication(name, makeRemoteLoader(name, registry)),
      activeWhen: (location) => routeOwner(location.pathname, routeTable) === name,
      customProps: () => ({ domElement: appContainer(main, name) }),
    });
  }
  registerApplication({
    name: NOT_FOUND_APP,
    app: notFoundLifecycles,
    activeWhen: (location) => routeOwner(location.pathname, routeTable) === null,
    customProps: () => ({ domElement: appContainer(main, NOT_FOUND_APP) }),
  });

  window.addEventListener(
    'single-spa:routing-event',
    createPageViewTracker(() => void client.trackPageView()),
  );
  loadIsolationChangesAsDocuments(routeTable);
  interceptLinkClicks((url) => linkCrossesIsolation(url, routeTable));
  start({ urlRerouteOnly: true });
  loadTrackingScripts(config.trackingScripts);
}

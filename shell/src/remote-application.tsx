import { createRoot, type Root } from 'react-dom/client';
import type { AppProps, LifeCycles } from 'single-spa';
import { RemoteLoadError } from './remote-load-error';

/** What the shell passes every application: the container it renders into. */
export type RemoteProps = { domElement: HTMLElement };
type MountProps = RemoteProps & AppProps;
type Lifecycle = LifeCycles<RemoteProps>['mount'];

async function run(lifecycle: Lifecycle, props: MountProps): Promise<void> {
  for (const step of Array.isArray(lifecycle) ? lifecycle : [lifecycle]) await step(props);
}

/**
 * The web origin prerenders a public page's intro (#pg-page-intro: heading and lead, then the page's text from
 * marketing's content, see packages/web-host page-documents.ts) so it reads and paints before the app loads; it
 * leaves just before the app renders its own page, which shows the same heading and lead in the same place.
 */
function removePrerenderedIntro(): void {
  document.getElementById('pg-page-intro')?.remove();
}

/** Checks that a loaded remote module really exports single-spa lifecycles. */
export function asLifecycles(name: string, module: unknown): LifeCycles<RemoteProps> {
  const candidate = module as Partial<LifeCycles<RemoteProps>> | null | undefined;
  const isLifecycle = (value: unknown) =>
    typeof value === 'function' || (Array.isArray(value) && value.every((step) => typeof step === 'function'));
  if (
    !candidate ||
    !isLifecycle(candidate.bootstrap) ||
    !isLifecycle(candidate.mount) ||
    !isLifecycle(candidate.unmount)
  ) {
    throw new Error(`The microfrontend "${name}" does not export single-spa lifecycles (bootstrap, mount, unmount)`);
  }
  return candidate as LifeCycles<RemoteProps>;
}

/**
 * The single-spa application the shell registers for a remote. It loads the remote on mount; when loading
 * (or the remote's own bootstrap/mount) fails, it renders an error screen with Retry in the app's container
 * instead of leaving the page blank, and Retry tries again (the loader decides how to refresh the remote).
 */
/** How long a remote's download and mount may take before single-spa logs it as stuck. */
const REMOTE_MOUNT_MILLIS = 120_000;

/** single-spa reads `timeouts` from the lifecycles object, though its typings leave it out. */
type TimedLifeCycles = LifeCycles<RemoteProps> & {
  timeouts: { mount: { millis: number; dieOnTimeout: boolean; warningMillis: number } };
};

export function createRemoteApplication(
  name: string,
  load: (attempt: number) => Promise<LifeCycles<RemoteProps>>,
): TimedLifeCycles {
  let remote: LifeCycles<RemoteProps> | null = null;
  let attempts = 0;
  let errorRoot: Root | null = null;
  let mountedRemote = false;
  // Bumped on every mount/unmount so a slow load finishing after the user navigated away is dropped.
  let generation = 0;

  async function mountRemote(props: MountProps, myGeneration: number): Promise<void> {
    if (!remote) {
      const loaded = await load(attempts++);
      await run(loaded.bootstrap, props);
      remote = loaded;
    }
    if (myGeneration !== generation) return;
    clearError();
    removePrerenderedIntro();
    await run(remote.mount, props);
    mountedRemote = true;
  }

  function clearError(): void {
    errorRoot?.unmount();
    errorRoot = null;
  }

  function showError(props: MountProps, error: unknown, myGeneration: number): void {
    if (myGeneration !== generation) return;
    removePrerenderedIntro();
    errorRoot ??= createRoot(props.domElement);
    errorRoot.render(<RemoteLoadError error={error} onRetry={() => attempt(props, myGeneration)} />);
  }

  async function attempt(props: MountProps, myGeneration: number): Promise<void> {
    try {
      await mountRemote(props, myGeneration);
    } catch (error) {
      console.error(`Loading the microfrontend "${name}" failed`, error);
      // A remote whose bootstrap failed is loaded again from scratch on retry.
      if (!mountedRemote) remote = null;
      showError(props, error, myGeneration);
    }
  }

  return {
    // The remote is downloaded inside mount, so mount lasts as long as the network does; single-spa's default
    // (an error after 3 s) would report a slow connection as a fault. Failures show the error screen instead.
    timeouts: { mount: { millis: REMOTE_MOUNT_MILLIS, dieOnTimeout: false, warningMillis: REMOTE_MOUNT_MILLIS } },
    bootstrap: async () => {},
    mount: async (props) => {
      generation += 1;
      await attempt(props, generation);
    },
    unmount: async (props) => {
      generation += 1;
      clearError();
      if (mountedRemote && remote) {
        mountedRemote = false;
        await run(remote.unmount, props);
      }
    },
  };
}

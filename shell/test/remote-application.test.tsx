import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AppProps, LifeCycles } from 'single-spa';
import { asLifecycles, createRemoteApplication, type RemoteProps } from '../src/remote-application';

type Props = RemoteProps & AppProps;

function propsFor(container: HTMLElement): Props {
  return { domElement: container, name: 'mfe_dashboard', singleSpa: {}, mountParcel: jest.fn() } as unknown as Props;
}

/** A stand-in remote that writes into its container like a real single-spa app would. */
function fakeRemote(): LifeCycles<RemoteProps> & { mounted: number; unmounted: number } {
  const remote = {
    mounted: 0,
    unmounted: 0,
    bootstrap: async () => {},
    mount: async (props: Props) => {
      remote.mounted += 1;
      props.domElement.innerHTML = '<h1>Dashboard</h1>';
    },
    unmount: async (props: Props) => {
      remote.unmounted += 1;
      props.domElement.innerHTML = '';
    },
  };
  return remote;
}

function lifecycle(fn: LifeCycles<RemoteProps>['mount']) {
  return fn as (props: Props) => Promise<unknown>;
}

let container: HTMLElement;
beforeEach(() => {
  container = document.createElement('div');
  document.body.appendChild(container);
  jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  container.remove();
  jest.restoreAllMocks();
});

describe('remote application error boundary', () => {
  it('shows an error with Retry when the remote fails to load, and Retry loads it again', async () => {
    const remote = fakeRemote();
    const load = jest
      .fn<Promise<LifeCycles<RemoteProps>>, [number]>()
      .mockRejectedValueOnce(new Error('Failed to get manifest.\nlong details'))
      .mockResolvedValueOnce(remote);
    const app = createRemoteApplication('mfe_dashboard', load);
    const props = propsFor(container);

    await act(() => lifecycle(app.mount)(props));
    expect(screen.getByRole('alert')).toHaveTextContent('This page could not be loaded');
    expect(screen.getByText('Failed to get manifest.')).toBeInTheDocument();
    expect(load).toHaveBeenLastCalledWith(0);

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument());
    expect(load).toHaveBeenLastCalledWith(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(remote.mounted).toBe(1);

    await act(() => lifecycle(app.unmount)(props));
    expect(remote.unmounted).toBe(1);
    expect(container).toBeEmptyDOMElement();
  });

  it('keeps showing the error (never a blank page) when a retry fails too', async () => {
    const load = jest.fn<Promise<LifeCycles<RemoteProps>>, [number]>().mockRejectedValue(new Error('offline'));
    const app = createRemoteApplication('mfe_tools', load);
    await act(() => lifecycle(app.mount)(propsFor(container)));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeEnabled();
    expect(screen.getByText('offline')).toBeInTheDocument();
  });

  it('loads a remote once and remounts it on later visits', async () => {
    const remote = fakeRemote();
    const load = jest.fn<Promise<LifeCycles<RemoteProps>>, [number]>().mockResolvedValue(remote);
    const app = createRemoteApplication('mfe_create', load);
    const props = propsFor(container);
    await act(() => lifecycle(app.mount)(props));
    await act(() => lifecycle(app.unmount)(props));
    await act(() => lifecycle(app.mount)(props));
    expect(load).toHaveBeenCalledTimes(1);
    expect(remote.mounted).toBe(2);
  });

  it('rejects a module without single-spa lifecycles with a clear message', () => {
    expect(() => asLifecycles('mfe_x', { default: {} })).toThrow(
      'The microfrontend "mfe_x" does not export single-spa lifecycles (bootstrap, mount, unmount)',
    );
    expect(asLifecycles('mfe_x', fakeRemote()).mount).toBeInstanceOf(Function);
  });
});

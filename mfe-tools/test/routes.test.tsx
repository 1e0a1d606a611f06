import { screen } from '@testing-library/react';
import { mfeRouteTree, routesOf } from '@productgen/mf-shared';
import { fakeApiClient, renderAt } from '@productgen/mf-shared/test-support';
import { routes } from '../src/routes';

const SIGNED_OUT = { 'GET /auth/me': { status: 401 } };

describe('mfe_tools routes', () => {
  it.each(routesOf('mfe_tools').map((entry) => [entry.path, entry] as const))(
    '%s renders its page with its title',
    async (path, entry) => {
      const { client } = fakeApiClient(SIGNED_OUT);
      renderAt(mfeRouteTree(routes), path.replace(':bulkJobUuid', 'job-1'), client);
      expect((await screen.findAllByRole('heading', { level: 1 }))[0]).toBeInTheDocument();
      expect(document.title).toBe(`${entry.title} | ProductGen`);
    },
  );

  it('renders nothing for a path another app owns', () => {
    const { client } = fakeApiClient(SIGNED_OUT);
    const { container } = renderAt(mfeRouteTree(routes), '/owned-elsewhere', client);
    expect(container).toBeEmptyDOMElement();
  });
});

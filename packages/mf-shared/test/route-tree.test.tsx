import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter } from 'react-router';
import { mfeRouteTree, RouteTree } from '@productgen/mf-shared';
import { fakeApiClient, renderAt } from '@productgen/mf-shared/test-support';

function BrokenPage(): never {
  throw new Error('The page could not be drawn');
}

const routes = mfeRouteTree([
  { path: '/broken', element: <BrokenPage /> },
  { path: '/fine', element: <h1>A working page</h1> },
]);

describe("an app's route tree", () => {
  beforeEach(() => {
    // React reports a caught render error on the console; the screen is what these tests are about.
    jest.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => jest.restoreAllMocks());

  it('shows "Oops" with the error text for a page that throws', () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    renderAt(routes, '/broken', client);
    expect(screen.getByRole('heading', { level: 1, name: 'Oops' })).toBeInTheDocument();
    expect(screen.getByText('The page could not be drawn')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute('href', '/');
  });

  it('renders the next page again when the visitor leaves the broken one', async () => {
    // The top bar's links live outside the app, as this one does.
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <Link to="/fine">Fine</Link>
        <RouteTree routes={routes} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Oops' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Fine' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'A working page' })).toBeInTheDocument();
    expect(screen.queryByText('Oops')).not.toBeInTheDocument();
  });

  it('renders nothing for a path the app does not own', () => {
    const { client } = fakeApiClient({ 'GET /auth/me': { status: 401 } });
    const { container } = renderAt(routes, '/someone-elses', client);
    expect(container).toBeEmptyDOMElement();
  });
});

import { render, screen } from '@testing-library/react';
import { routeOwner } from '@productgen/mf-shared';
import { NotFoundPage } from '../src/not-found';

describe('not-found page', () => {
  it('is what an unknown path shows: title, text and a link home', () => {
    window.history.pushState(null, '', '/no-such-page');
    expect(routeOwner(window.location.pathname)).toBeNull();
    render(<NotFoundPage />);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('The page you are looking for does not exist or has moved.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Page not found | ProductGen');
  });
});

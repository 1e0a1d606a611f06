import { ROUTE_TABLE } from '@productgen/mf-shared';
import { crossesIsolation, needsIsolation } from '../src/cross-origin-isolation';

const at = (pathname: string) => `http://localhost:8080${pathname}`;

describe('cross-origin isolation of in-page navigations', () => {
  it('asks for isolation on the free tools only', () => {
    expect(needsIsolation('/remove-background-shopify', ROUTE_TABLE)).toBe(true);
    expect(needsIsolation('/image-upscaler/', ROUTE_TABLE)).toBe(true);
    expect(needsIsolation('/pricing', ROUTE_TABLE)).toBe(false);
    expect(needsIsolation('/', ROUTE_TABLE)).toBe(false);
  });

  it('loads a tool as a document of its own when the current one is not isolated, and leaves it the same way', () => {
    const toTool = { oldUrl: at('/pricing'), newUrl: at('/image-upscaler') };
    expect(crossesIsolation(toTool, false, ROUTE_TABLE)).toBe(true);
    expect(crossesIsolation(toTool, true, ROUTE_TABLE)).toBe(false);
    const fromTool = { oldUrl: at('/image-upscaler'), newUrl: at('/dashboard') };
    expect(crossesIsolation(fromTool, true, ROUTE_TABLE)).toBe(true);
    expect(crossesIsolation({ oldUrl: at('/image-upscaler'), newUrl: at('/image-resizer') }, true, ROUTE_TABLE)).toBe(
      false,
    );
  });

  it('never reloads the page it is on (the first routing, a hash change, a page served without the headers)', () => {
    expect(crossesIsolation({ oldUrl: at('/image-upscaler'), newUrl: at('/image-upscaler') }, false, ROUTE_TABLE)).toBe(
      false,
    );
    expect(crossesIsolation({ oldUrl: at('/'), newUrl: at('/#demo') }, false, ROUTE_TABLE)).toBe(false);
  });
});

import { shouldInterceptClick } from '../src/link-interception';

function clickOn(anchorHtml: string, init: MouseEventInit = {}): { event: MouseEvent; anchor: HTMLAnchorElement } {
  document.body.innerHTML = anchorHtml;
  const anchor = document.querySelector('a')!;
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  Object.defineProperty(event, 'target', { value: anchor.firstElementChild ?? anchor });
  return { event, anchor };
}

describe('link interception', () => {
  it('routes plain same-origin links through single-spa', () => {
    const { event, anchor } = clickOn('<a href="/pricing"><span>Pricing</span></a>');
    expect(shouldInterceptClick(event, 'http://localhost')).toBe(anchor);
  });

  it.each([
    ['another origin', '<a href="https://example.com/x">x</a>', {}],
    ['a new-tab gesture', '<a href="/pricing">x</a>', { ctrlKey: true }],
    ['a middle click', '<a href="/pricing">x</a>', { button: 1 }],
    ['a download', '<a href="/download/1/batch" download>x</a>', {}],
    ['a target', '<a href="/terms" target="_blank">x</a>', {}],
  ])('leaves %s to the browser', (_case, html, init) => {
    const { event } = clickOn(html, init as MouseEventInit);
    expect(shouldInterceptClick(event, 'http://localhost')).toBeNull();
  });
});

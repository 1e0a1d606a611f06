import type { OpenApiDocument } from '@productgen/contracts';

/*
 * GET /docs: a readable, self-contained page of the OpenAPI document. Everything is rendered here (no scripts,
 * no CDN), so it works offline and under a strict Content-Security-Policy; the one <style> carries the nonce.
 */

type Json = Record<string, unknown>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

function asRecord(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const ownerTitles: Record<string, string> = {
  auth: 'Sign-in, sessions and user settings (auth)',
  billing: 'Payments and credits (billing)',
  generation: 'Image analysis, generation, presets and downloads (generation)',
  bulk: 'Batch jobs (bulk)',
  gateway: 'Served by the gateway itself',
};

interface Operation {
  method: string;
  path: string;
  details: Json;
}

function authLabel(security: unknown[]): string {
  if (security.length === 0) return 'no session';
  const schemes = security.map((requirement) => Object.keys(asRecord(requirement)));
  const optional = schemes.some((names) => names.length === 0);
  const cookie = schemes.some((names) => names.includes('sessionCookie'));
  const base = optional ? 'session optional' : 'session required';
  return cookie ? `${base} (X-Session-Key or session_key cookie)` : `${base} (X-Session-Key)`;
}

function schemaName(schema: unknown): string {
  const ref = text(asRecord(schema)['$ref']);
  return ref ? (ref.split('/').pop() ?? ref) : 'inline schema';
}

function renderParameters(parameters: unknown[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters
    .map((parameter) => {
      const fields = asRecord(parameter);
      const required = fields['required'] === true ? 'required' : 'optional';
      return `<li><code>${escapeHtml(text(fields['name']))}</code> <span class="muted">in ${escapeHtml(
        text(fields['in']),
      )}, ${required}</span></li>`;
    })
    .join('');
  return `<div><strong>Parameters</strong><ul>${rows}</ul></div>`;
}

function renderRequestBody(requestBody: unknown, schemas: Json): string {
  const content = asRecord(asRecord(requestBody)['content']);
  const [mediaType] = Object.keys(content);
  if (!mediaType) return '';
  const schema = asRecord(content[mediaType])['schema'];
  const name = schemaName(schema);
  const definition = schemas[name];
  const body = definition
    ? `<details><summary>${escapeHtml(name)}</summary><pre>${escapeHtml(JSON.stringify(definition, null, 2))}</pre></details>`
    : `<code>${escapeHtml(name)}</code>`;
  return `<div><strong>Body</strong> <span class="muted">${escapeHtml(mediaType)}</span> ${body}</div>`;
}

function renderResponses(responses: Json, sharedResponses: Json): string {
  const items = Object.entries(responses)
    .map(([status, response]) => {
      // Error answers are shared components: show their description, not the reference.
      const reference = text(asRecord(response)['$ref']).split('/').pop() ?? '';
      const description =
        text(asRecord(response)['description']) || text(asRecord(sharedResponses[reference])['description']);
      return `<li><code>${escapeHtml(status)}</code> ${escapeHtml(description || reference)}</li>`;
    })
    .join('');
  return `<div><strong>Answers</strong><ul>${items}</ul></div>`;
}

function renderOperation(operation: Operation, components: { schemas: Json; responses: Json }): string {
  const { details } = operation;
  const devOnly = details['x-dev-only'] === true ? ' <span class="badge dev">embedded mode only</span>' : '';
  return `<article id="${escapeHtml(text(details['operationId']))}">
<h3><span class="method ${escapeHtml(operation.method)}">${escapeHtml(operation.method.toUpperCase())}</span> <code>${escapeHtml(
    operation.path,
  )}</code>${devOnly}</h3>
<p>${escapeHtml(text(details['summary']))}</p>
<p class="muted">${escapeHtml(authLabel(asArray(details['security'])))}</p>
${renderParameters(asArray(details['parameters']))}
${renderRequestBody(details['requestBody'], components.schemas)}
${renderResponses(asRecord(details['responses']), components.responses)}
</article>`;
}

/** Operations grouped by owning service, in the order of the document's tags. */
export function operationsByOwner(document: OpenApiDocument): Map<string, Operation[]> {
  const groups = new Map<string, Operation[]>(document.tags.map((tag) => [tag.name, []]));
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, details] of Object.entries(methods)) {
      const owner = text(details['x-owner']) || 'other';
      const group = groups.get(owner) ?? [];
      group.push({ method, path, details });
      groups.set(owner, group);
    }
  }
  return groups;
}

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header,main{max-width:960px;margin:0 auto;padding:16px 24px}
header{border-bottom:1px solid #dde1e7;background:#fff;max-width:none}
h2{margin-top:32px;border-bottom:2px solid #dde1e7;padding-bottom:4px}
article{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:12px 16px;margin:12px 0}
h3{font-size:16px;margin:0 0 4px}
.method{display:inline-block;min-width:56px;text-align:center;border-radius:4px;color:#fff;font-size:12px;padding:2px 6px;background:#5a6270}
.method.get{background:#2f7d4f}.method.post{background:#2556a8}.method.put,.method.patch{background:#a86b25}.method.delete{background:#a82525}
.muted{color:#5a6270}.badge{font-size:12px;border-radius:4px;padding:1px 6px;margin-left:6px}.dev{background:#fde9c8;color:#7a4a00}
pre{background:#f0f2f5;padding:8px;overflow:auto;font-size:12px}ul{margin:4px 0 8px}nav a{margin-right:12px}
`;

export interface DocsPageOptions {
  /** CSP nonce for the inline stylesheet. */
  styleNonce: string;
  /** Where the raw document is, linked from the page. */
  documentPath?: string;
}

export function renderDocsPage(document: OpenApiDocument, options: DocsPageOptions): string {
  const groups = operationsByOwner(document);
  const components = {
    schemas: asRecord(document.components.schemas),
    responses: asRecord(document.components.responses),
  };
  const sections = [...groups]
    .filter(([, operations]) => operations.length > 0)
    .map(
      ([owner, operations]) =>
        `<section id="owner-${escapeHtml(owner)}"><h2>${escapeHtml(ownerTitles[owner] ?? owner)}</h2>${operations
          .map((operation) => renderOperation(operation, components))
          .join('\n')}</section>`,
    )
    .join('\n');
  const navigation = [...groups.keys()]
    .filter((owner) => (groups.get(owner)?.length ?? 0) > 0)
    .map((owner) => `<a href="#owner-${escapeHtml(owner)}">${escapeHtml(owner)}</a>`)
    .join('');
  const documentPath = options.documentPath ?? '/openapi.json';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} ${escapeHtml(document.info.version)}</title>
<style nonce="${escapeHtml(options.styleNonce)}">${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(document.info.title)} <span class="muted">${escapeHtml(document.info.version)}</span></h1>
<p>${escapeHtml(document.info.description)} The machine-readable document is at <a href="${escapeHtml(
    documentPath,
  )}">${escapeHtml(documentPath)}</a>.</p>
<nav>${navigation}</nav>
</header>
<main>
${sections}
</main>
</body>
</html>
`;
}

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  apiRoutes,
  buildOpenApiDocument,
  pathParamNames,
  toOpenApiPath,
  type OpenApiDocument,
} from '@productgen/contracts';

const run = promisify(execFile);

/** Every `$ref` value anywhere in a JSON value. */
function collectRefs(value: unknown, refs: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, refs);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') refs.push(child);
      else collectRefs(child, refs);
    }
  }
  return refs;
}

function resolvePointer(document: unknown, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
}

type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, unknown>;
  security: unknown[];
};

function operationOf(document: OpenApiDocument, method: string, routePath: string): Operation {
  return document.paths[toOpenApiPath(routePath)]?.[method.toLowerCase()] as Operation;
}

describe('buildOpenApiDocument', () => {
  const document = buildOpenApiDocument({ title: 'Test API', version: '9.9.9', serverUrl: 'http://localhost:8080' });

  test('is JSON and keeps its options', () => {
    const parsed = JSON.parse(JSON.stringify(document)) as OpenApiDocument;
    expect(parsed).toEqual(document);
    expect(parsed.openapi).toBe('3.1.0');
    expect(parsed.info).toMatchObject({ title: 'Test API', version: '9.9.9' });
    expect(parsed.servers).toEqual([{ url: 'http://localhost:8080' }]);
  });

  test('has every route, with {param} paths and their path parameters', () => {
    for (const route of apiRoutes) {
      const operation = operationOf(document, route.method, route.path);
      expect(operation?.operationId).toBe(route.id);
      const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
      expect(pathParameters.map((parameter) => parameter.name)).toEqual(pathParamNames(route.path));
    }
    expect(Object.keys(document.paths).some((key) => key.includes(':'))).toBe(false);
    expect(document.paths['/image-gen/status/{generation_uuid}']).toBeDefined();
  });

  test('registers the entities as reusable components and refers to them', () => {
    for (const name of ['User', 'Generation', 'GeneratedImage', 'BulkJob', 'StylePreset', 'CreditRecord', 'ApiError']) {
      expect(document.components.schemas[name]).toBeDefined();
    }
    const generation = document.components.schemas.Generation as { properties: { images: { items: unknown } } };
    expect(generation.properties.images.items).toEqual({ $ref: '#/components/schemas/GeneratedImage' });
  });

  test('every $ref resolves inside the document', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(resolvePointer(document, ref)).toBeDefined();
  });

  test('request bodies: JSON, and multipart with a binary zip for bulk-zip', () => {
    const imageGen = operationOf(document, 'POST', '/imageGen');
    expect(imageGen.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ImageGenRequest',
    });
    const bulk = operationOf(document, 'POST', '/image-gen/bulk-zip');
    const multipartRef = bulk.requestBody?.content['multipart/form-data']?.schema.$ref ?? '';
    const multipart = resolvePointer(document, multipartRef) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(multipart.properties.zipFile).toMatchObject({ type: 'string', contentMediaType: 'application/zip' });
    expect(multipart.properties.numGenerates).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(multipart.required.sort()).toEqual(['numGenerates', 'zipFile']);
  });

  test('requests are described as sent: numGenerates 1..5, preset name up to 255', () => {
    const imageGen = document.components.schemas.ImageGenRequest as { properties: Record<string, unknown> };
    expect(imageGen.properties.numGenerates).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    const save = document.components.schemas.StylePresetSave as { properties: Record<string, unknown> };
    expect(save.properties.preset_name).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
  });

  test('errors use the {code, error} shape; session routes declare 401 and the session key', () => {
    expect(document.components.schemas.ApiError).toMatchObject({ required: ['code', 'error'] });
    expect(document.components.securitySchemes.sessionKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-Session-Key',
    });
    const status = operationOf(document, 'GET', '/image-gen/status/:generation_uuid');
    expect(status.security).toEqual([{ sessionKey: [] }]);
    expect(status.responses['401']).toEqual({ $ref: '#/components/responses/Error401' });
    expect(status.responses['404']).toEqual({ $ref: '#/components/responses/Error404' });
    const signIn = operationOf(document, 'POST', '/auth/google');
    expect(signIn.security).toEqual([]);
    expect(signIn.responses['401']).toBeUndefined();
    expect(document.components.responses.Error400).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
    });
  });

  test('download routes answer files', () => {
    const download = operationOf(document, 'GET', '/download/bulk/:id') as unknown as {
      responses: { '200': { content: Record<string, unknown> } };
    };
    expect(Object.keys(download.responses['200'].content)).toEqual(['application/zip']);
  });

  test('dev routes can be left out', () => {
    const production = buildOpenApiDocument({ includeDevRoutes: false });
    expect(production.paths['/dev-idp/credential']).toBeUndefined();
    expect(production.paths['/auth/google']).toBeDefined();
  });

  test('passes the OpenAPI 3.1 schema validator', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'contracts-openapi-'));
    try {
      const file = path.join(directory, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      // The validator is ESM-only; jest runs CommonJS, so it runs in its own Node process.
      const script = [
        "import { Validator } from '@seriousme/openapi-schema-validator';",
        'const validator = new Validator();',
        'const result = await validator.validate(process.argv[1]);',
        'process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors }));',
      ].join('\n');
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, file], {
        cwd: __dirname,
      });
      const result = JSON.parse(stdout) as { valid: boolean; version: string; errors: unknown };
      expect(result.errors ?? []).toEqual([]);
      expect(result).toMatchObject({ valid: true, version: '3.1' });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 60_000);
});

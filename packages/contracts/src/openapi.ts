import { z } from 'zod';
import { apiRoutes, toOpenApiPath, type ApiRoute } from './api';
import * as entities from './entities';
import { SESSION_KEY_HEADER, SESSION_KEY_STORAGE_NAME } from './limits';
import { packageTierSchema } from './packages';

/*
 * OpenAPI 3.1 document generated from the route table. Schemas are converted by zod 4's own
 * z.toJSONSchema: named entities and every route body / answer become components and refer to each other
 * by $ref. Request schemas are converted as the client sends them (io: input, before transforms and
 * defaults), answers as the server sends them (io: output), so the two sets are converted separately.
 */

type JsonSchema = Record<string, unknown>;

/** Components for the SPEC §3 entities; route schemas that are not listed get a name from the route id. */
const namedResponseSchemas: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['ApiError', entities.apiErrorSchema],
  ['Success', entities.successSchema],
  ['User', entities.userSchema],
  ['UserFlags', entities.userFlagsSchema],
  ['ShopContextEntry', entities.shopContextEntrySchema],
  ['AuthSession', entities.authSessionSchema],
  ['Category', entities.categorySchema],
  ['AnalysisResult', entities.analysisResultSchema],
  ['GeneratedImage', entities.generatedImageSchema],
  ['Generation', entities.generationSchema],
  ['GenerationStatusResponse', entities.generationStatusResponseSchema],
  ['GenerationStarted', entities.generationStartedSchema],
  ['RecordItem', entities.recordItemSchema],
  ['BulkJobSummary', entities.bulkJobSummarySchema],
  ['BulkJob', entities.bulkJobSchema],
  ['StylePreset', entities.stylePresetSchema],
  ['StylePresetList', entities.stylePresetListSchema],
  ['CreditRecord', entities.creditRecordSchema],
  ['PaymentRecord', entities.paymentRecordSchema],
  ['CheckoutSession', entities.checkoutSessionSchema],
  ['RefundResponse', entities.refundResponseSchema],
  ['PackageTier', packageTierSchema],
  ['ClientConfig', entities.clientConfigSchema],
];

const namedRequestSchemas: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['AuthGoogleRequest', entities.authGoogleRequestSchema],
  ['ImageGenRequest', entities.imageGenRequestSchema],
  ['ImageGenFromIdRequest', entities.imageGenFromIdRequestSchema],
  ['AnalyzeImageRequest', entities.analyzeImageRequestSchema],
  ['BulkZipRequest', entities.bulkZipRequestSchema],
  ['StylePresetSave', entities.stylePresetSaveSchema],
  ['RefundRequest', entities.refundRequestSchema],
  ['CheckoutRequest', entities.checkoutRequestSchema],
  ['UserSettings', entities.userSettingsSchema],
  ['UserMetadata', entities.userMetadataSchema],
  ['TooltipDismissal', entities.tooltipDismissalSchema],
  ['ReferralSource', entities.referralSourceSchema],
  ['AnalyticsEvent', entities.analyticsEventSchema],
];

const componentRefPrefix = '#/components/schemas/';

function pascalCase(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

/** Maps each schema to one component name; the first name given wins. */
class ComponentNames {
  private readonly names = new Map<z.ZodType, string>();
  private readonly taken = new Set<string>();

  add(schema: z.ZodType, name: string): void {
    if (this.names.has(schema)) return;
    if (this.taken.has(name)) throw new Error(`Two different schemas are both named "${name}"`);
    this.names.set(schema, name);
    this.taken.add(name);
  }

  nameOf(schema: z.ZodType): string | undefined {
    return this.names.get(schema);
  }

  entries(): IterableIterator<[z.ZodType, string]> {
    return this.names.entries();
  }
}

/** A multipart file part is described as bytes, not as the object multer makes of it. */
function describeFileParts(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  if (context.zodSchema !== entities.uploadedZipFileSchema) return;
  for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
  Object.assign(context.jsonSchema, {
    type: 'string',
    format: 'binary',
    contentMediaType: 'application/zip',
    description: 'The zip of product photos (.jpg, .jpeg, .png, .webp), sent as images.zip.',
  });
}

function convertComponents(names: ComponentNames, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of names.entries()) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => `${componentRefPrefix}${id}`,
    // Binary answers are never converted; nothing else here is unrepresentable, so fail loudly if one appears.
    unrepresentable: 'throw',
    override: describeFileParts,
  });
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    if (id === '__shared') throw new Error('Unnamed shared schema found; give it a component name');
    // `$schema` and a fragment `$id` are not allowed inside an OpenAPI component.
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    result[id] = rest;
  }
  return result;
}

function inlineSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

function ref(name: string): JsonSchema {
  return { $ref: `${componentRefPrefix}${name}` };
}

const statusDescriptions: Record<number, string> = {
  400: 'Bad Request: the input broke a rule; `error` says which, in words.',
  401: 'Unauthorized: no valid session key.',
  402: 'Payment Required: not enough credits for the images requested.',
  404: 'Not Found (also answered for an id that belongs to another user).',
  405: 'Method Not Allowed.',
  413: 'Payload Too Large.',
  415: 'Unsupported Media Type: the upload is not an image (or not a zip).',
  429: 'Too Many Requests.',
  500: 'Internal Server Error.',
};

function errorStatusesOf(route: ApiRoute): number[] {
  const statuses = new Set<number>([429, 500, ...(route.errorStatuses ?? [])]);
  if (route.request) statuses.add(400);
  if (route.auth === 'session') statuses.add(401);
  return [...statuses].sort((a, b) => a - b);
}

function parametersOf(route: ApiRoute): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  const groups = [
    ['path', route.request?.params],
    ['query', route.request?.query],
    ['header', route.request?.headers],
  ] as const;
  for (const [location, schema] of groups) {
    if (!schema) continue;
    const json = inlineSchema(schema);
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, propertySchema] of Object.entries(properties)) {
      const { description, ...schemaOnly } = propertySchema;
      parameters.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: schemaOnly,
      });
    }
  }
  return parameters;
}

function successResponse(route: ApiRoute, names: ComponentNames): JsonSchema {
  switch (route.responseType ?? 'json') {
    case 'binary':
      return {
        description: 'The file.',
        content: Object.fromEntries(
          (route.responseContentTypes ?? ['application/octet-stream']).map((type) => [
            type,
            { schema: { type: 'string', contentMediaType: type } },
          ]),
        ),
      };
    case 'html':
      return { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } };
    case 'redirect':
      return {
        description: 'See Other: the browser continues at Location.',
        headers: { Location: { required: true, schema: { type: 'string' } } },
      };
    case 'json':
      return {
        description: 'OK',
        content: {
          'application/json': { schema: ref(names.nameOf(route.response) ?? `${pascalCase(route.id)}Response`) },
        },
      };
  }
}

function requestBodyOf(route: ApiRoute, names: ComponentNames): JsonSchema | undefined {
  const body = route.request?.body;
  if (!body) return undefined;
  const schema = ref(names.nameOf(body) ?? `${pascalCase(route.id)}Request`);
  const mediaType = route.request?.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json';
  return { required: true, content: { [mediaType]: { schema } } };
}

function securityOf(route: ApiRoute): JsonSchema[] {
  if (route.auth === 'none') return [];
  const accepted: JsonSchema[] = [{ sessionKey: [] }];
  if (route.acceptsSessionCookie) accepted.push({ sessionCookie: [] });
  // An empty requirement object means "no credentials" is also accepted.
  return route.auth === 'optional' ? [{}, ...accepted] : accepted;
}

export interface OpenApiOptions {
  title?: string;
  version?: string;
  serverUrl?: string;
  /** Leave out embedded-mode routes (the production gateway refuses them). */
  includeDevRoutes?: boolean;
  routes?: readonly ApiRoute[];
}

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers?: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, JsonSchema>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
  };
};

/** The OpenAPI 3.1 document of the API, built from the route table. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const includeDev = options.includeDevRoutes ?? true;
  const routeTable = (options.routes ?? apiRoutes).filter((route) => includeDev || !route.devOnly);

  const requestNames = new ComponentNames();
  const responseNames = new ComponentNames();
  for (const [name, schema] of namedRequestSchemas) requestNames.add(schema, name);
  for (const [name, schema] of namedResponseSchemas) responseNames.add(schema, name);
  for (const route of routeTable) {
    if (route.request?.body) requestNames.add(route.request.body, `${pascalCase(route.id)}Request`);
    if ((route.responseType ?? 'json') === 'json') responseNames.add(route.response, `${pascalCase(route.id)}Response`);
  }

  const requestComponents = convertComponents(requestNames, 'input');
  const responseComponents = convertComponents(responseNames, 'output');
  for (const name of Object.keys(requestComponents)) {
    if (name in responseComponents) throw new Error(`Component "${name}" is both a request and an answer schema`);
  }

  const errorResponseNames = new Set<number>();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routeTable) {
    const responses: Record<string, JsonSchema> = {
      [route.responseType === 'redirect' ? '303' : '200']: successResponse(route, responseNames),
    };
    for (const status of errorStatusesOf(route)) {
      errorResponseNames.add(status);
      responses[String(status)] = { $ref: `#/components/responses/Error${status}` };
    }
    const parameters = parametersOf(route);
    const requestBody = requestBodyOf(route, requestNames);
    const operation: JsonSchema = {
      operationId: route.id,
      summary: route.summary,
      tags: [route.owner],
      security: securityOf(route),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      'x-owner': route.owner,
      ...(route.devOnly ? { 'x-dev-only': true } : {}),
    };
    const path = toOpenApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }

  const errorResponses: Record<string, JsonSchema> = {};
  for (const status of [...errorResponseNames].sort((a, b) => a - b)) {
    errorResponses[`Error${status}`] = {
      description: statusDescriptions[status] ?? `Error ${status}`,
      content: { 'application/json': { schema: ref('ApiError') } },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'ProductGen API',
      version: options.version ?? '1.0.0',
      description:
        'Product-photo generation API. Errors are JSON {code, error}; send the session key in the ' +
        `${SESSION_KEY_HEADER} header.`,
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [...new Set(routeTable.map((route) => route.owner))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...responseComponents, ...requestComponents },
      securitySchemes: {
        sessionKey: { type: 'apiKey', in: 'header', name: SESSION_KEY_HEADER },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_KEY_STORAGE_NAME },
      },
      responses: errorResponses,
    },
  };
}

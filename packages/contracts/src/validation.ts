import { z } from 'zod';
import type { ApiRoute } from './api';
import type { ApiError } from './entities';

/** Where in a request (or message) an issue was found. */
export type IssueLocation = 'body' | 'query' | 'params' | 'headers' | 'message';

export interface ValidationIssue {
  location: IssueLocation;
  /** Field path, e.g. `presets[2]`; empty for the whole part. */
  path: string;
  /** Full sentence for a person, e.g. "numGenerates must be between 1 and 5". */
  message: string;
}

const wholePartNames: Record<IssueLocation, string> = {
  body: 'The request body',
  query: 'The query string',
  params: 'The address',
  headers: 'The request headers',
  message: 'The message',
};

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    const name = String(key);
    return text.length === 0 ? name : `${text}.${name}`;
  }, '');
}

function describeExpected(expected: string): string {
  const articles: Record<string, string> = {
    string: 'text',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    array: 'a list',
    object: 'an object',
  };
  return articles[expected] ?? `a ${expected}`;
}

function sizeUnit(origin: string, count: number | bigint): string {
  if (origin === 'string') return count === 1 ? ' character' : ' characters';
  if (origin === 'array' || origin === 'set') return count === 1 ? ' item' : ' items';
  return '';
}

/**
 * Friendly wording for zod's built-in issues; schemas with their own message keep it (schema-level messages
 * take precedence over a per-parse error map in zod 4).
 */
const friendlyErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${describeExpected(issue.expected)}`;
    case 'too_small': {
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      const comparison = issue.inclusive === false ? 'more than' : 'at least';
      return `must be ${comparison} ${issue.minimum}${sizeUnit(issue.origin, issue.minimum)}`;
    }
    case 'too_big': {
      const comparison = issue.inclusive === false ? 'less than' : 'at most';
      return `must be ${comparison} ${issue.maximum}${sizeUnit(issue.origin, issue.maximum)}`;
    }
    case 'invalid_format':
      return issue.format === 'regex' ? 'has an invalid format' : `must be a valid ${issue.format}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'is not valid';
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return undefined;
  }
};

function sentence(text: string): string {
  return text.length === 0 ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

/** Turns zod issues into sentences that name the field: "numGenerates must be between 1 and 5". */
export function formatIssues(issues: readonly z.core.$ZodIssue[], location: IssueLocation): ValidationIssue[] {
  return issues.map((issue) => {
    const path = formatPath(issue.path);
    // A message starting with a capital is a whole sentence (e.g. SPEC wording "Please upload a valid zip
    // file."), as is a whole-object rule; both are shown as they are.
    if (/^[A-Z]/.test(issue.message) || (path.length === 0 && issue.code === 'custom')) {
      return { location, path, message: sentence(issue.message) };
    }
    const subject = path.length === 0 ? wholePartNames[location] : path;
    return { location, path, message: `${subject} ${issue.message}` };
  });
}

/** Parses with the friendly error map; the result's issues are already formatted. */
export function parseWithIssues<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  location: IssueLocation,
): { success: true; data: z.output<Schema> } | { success: false; issues: ValidationIssue[] } {
  const result = schema.safeParse(input, { error: friendlyErrorMap });
  if (result.success) return { success: true, data: result.data };
  return { success: false, issues: formatIssues(result.error.issues, location) };
}

/** Thrown by `parseMessage` and other throwing parsers of this package. */
export class ContractValidationError extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[], context: string) {
    super(`${context}: ${issues.map((issue) => issue.message).join('; ')}`);
    this.name = 'ContractValidationError';
    this.issues = issues;
  }
}

export interface RequestParts {
  body?: unknown;
  query?: unknown;
  params?: unknown;
  headers?: unknown;
}

export interface ValidatedRequest {
  body: unknown;
  query: unknown;
  params: unknown;
  headers: unknown;
}

export type RequestValidation =
  | { ok: true; data: ValidatedRequest }
  | {
      ok: false;
      issues: ValidationIssue[];
      /** All issues in one line, for `{code: 400, error}`. */
      message: string;
      error: ApiError;
    };

const validatedParts = ['params', 'query', 'headers', 'body'] as const;

/**
 * Validates the parts a route (public or internal) declares. Parts it does not declare pass through untouched; a raw-body route's
 * body is left to its owner, which must check the signature on the exact bytes before reading it.
 */
export function validateRequest(route: Pick<ApiRoute, 'request' | 'response'>, parts: RequestParts): RequestValidation {
  const data: ValidatedRequest = {
    body: parts.body,
    query: parts.query,
    params: parts.params,
    headers: parts.headers,
  };
  const issues: ValidationIssue[] = [];
  for (const part of validatedParts) {
    const schema = route.request?.[part];
    if (!schema) continue;
    if (part === 'body' && route.request?.bodyType === 'raw') continue;
    // An absent query or header set is an empty one; an absent body stays absent so "is required" shows.
    const input = parts[part] ?? (part === 'body' ? undefined : {});
    const result = parseWithIssues(schema, input, part);
    if (result.success) data[part] = result.data;
    else issues.push(...result.issues);
  }
  if (issues.length === 0) return { ok: true, data };
  const message = issues.map((issue) => issue.message).join('; ');
  return { ok: false, issues, message, error: { code: 400, error: message } };
}

import type { RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from './errors';

export type InputPart = 'body' | 'query' | 'params';

type ZodIssueLike = { path: readonly PropertyKey[]; message: string };

function isZodErrorLike(error: unknown): error is { issues: ZodIssueLike[] } {
  return (
    error instanceof z.ZodError ||
    (error instanceof Error && error.name === 'ZodError' && Array.isArray((error as { issues?: unknown }).issues))
  );
}

/** "email: Invalid email address; items.0.qty: Too small" — every issue, each naming its field. */
export function describeIssues(issues: readonly ZodIssueLike[]): string {
  return issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** A 400 AppError for a failed zod parse, or undefined when the error is not a zod error. */
export function appErrorFromZod(error: unknown, part: InputPart = 'body'): AppError | undefined {
  if (!isZodErrorLike(error)) return undefined;
  return AppError.badRequest(`Invalid request ${part}: ${describeIssues(error.issues)}`, { issues: error.issues });
}

/** Parses one part of a request; bad input becomes a 400 AppError naming each offending field. */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  part: InputPart,
): z.output<Schema> {
  if (part === 'body' && value === undefined) {
    throw AppError.badRequest('Invalid request body: expected a JSON body (Content-Type: application/json)');
  }
  const result = schema.safeParse(value);
  if (!result.success) throw appErrorFromZod(result.error, part) ?? AppError.badRequest();
  return result.data;
}

export const parseBody = <Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> =>
  parseInput(schema, body, 'body');
export const parseQuery = <Schema extends z.ZodType>(schema: Schema, query: unknown): z.output<Schema> =>
  parseInput(schema, query, 'query');
export const parseParams = <Schema extends z.ZodType>(schema: Schema, params: unknown): z.output<Schema> =>
  parseInput(schema, params, 'params');

/**
 * Middleware validating the JSON body and replacing it with the parsed (typed, stripped) value.
 * Query and params are read-only getters in Express 5, so handlers parse those with parseQuery/parseParams.
 */
export function validate(schema: z.ZodType): RequestHandler {
  return (req, _res, next) => {
    req.body = parseBody(schema, req.body);
    next();
  };
}

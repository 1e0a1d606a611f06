/** What every failed API call throws: the `{code, error}` shape of SPEC §8, as a real Error for stack traces. */
export class ApiError extends Error {
  readonly code: number | string;
  readonly error: string;

  constructor(code: number | string, error: string) {
    super(error);
    this.name = 'ApiError';
    this.code = code;
    this.error = error;
  }
}

export const UNAUTHORIZED = { code: 401, error: 'Unauthorized' } as const;

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

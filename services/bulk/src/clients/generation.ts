import { generationInternalRoutes } from '@productgen/contracts';
import {
  AppError,
  createInternalApiClient,
  type InternalApiClient,
  type ServiceIdentity,
} from '@productgen/service-kit';

/** Generation's internal routes (Download All reads the images' objects itself, by the references they list). */
export interface GenerationClient {
  api: InternalApiClient<typeof generationInternalRoutes>;
}

/** The connection broke before any answer (the internal client's 503 for a failed fetch). */
function isConnectionLoss(error: unknown): boolean {
  const cause = error instanceof AppError ? (error.details as { cause?: unknown } | undefined)?.cause : undefined;
  return error instanceof AppError && error.status === 503 && String(cause).includes('fetch failed');
}

/**
 * Every route of generation's table is idempotent (a hand-over is keyed by its generation uuid), so a call whose
 * kept-alive connection was reset under it is sent once more, as HTTP clients do for idempotent requests
 * (RFC 9110 §9.2.2). In embedded mode generation's renderer can hold the shared event loop for seconds, which is
 * when a server drops an idle connection just as the next request goes out on it.
 */
function retryingOnConnectionLoss<Api extends Record<string, (input: never) => Promise<unknown>>>(api: Api): Api {
  const wrapped: Record<string, (input: never) => Promise<unknown>> = {};
  for (const [name, call] of Object.entries(api)) {
    wrapped[name] = async (input) => {
      try {
        return await call(input);
      } catch (error) {
        if (!isConnectionLoss(error)) throw error;
        return call(input);
      }
    };
  }
  return wrapped as Api;
}

export function createGenerationClient(options: {
  baseUrl: string;
  timeoutMs: number;
  identity: ServiceIdentity;
}): GenerationClient {
  return {
    api: retryingOnConnectionLoss(
      createInternalApiClient(generationInternalRoutes, {
        baseUrl: options.baseUrl,
        target: 'generation',
        timeoutMs: options.timeoutMs,
        identity: options.identity,
      }),
    ),
  };
}

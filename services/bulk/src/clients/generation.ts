import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fillPath, generationInternalRoutes, routePaths } from '@productgen/contracts';
import {
  AppError,
  createInternalApiClient,
  fetchWithTrace,
  SERVICE_TOKEN_HEADER,
  type InternalApiClient,
  type ServiceIdentity,
} from '@productgen/service-kit';

/** Generation's internal routes, plus its image downloads streamed as they are for the batch's Download All. */
export interface GenerationClient {
  api: InternalApiClient<typeof generationInternalRoutes>;
  /** One image (index -1: the original) of a user's generation, streamed. */
  openImage(userId: string, generationUuid: string, imageIndex: number): Promise<Readable>;
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
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    api: retryingOnConnectionLoss(
      createInternalApiClient(generationInternalRoutes, {
        baseUrl: options.baseUrl,
        target: 'generation',
        timeoutMs: options.timeoutMs,
        identity: options.identity,
      }),
    ),
    async openImage(userId, generationUuid, imageIndex) {
      // The same download route the gateway forwards to, called as the gateway does (the user in a signed token).
      const route = fillPath(routePaths.downloadImage.path, { id: generationUuid, index: imageIndex });
      const response = await fetchWithTrace(`${base}${route}`, {
        headers: { [SERVICE_TOKEN_HEADER]: await options.identity.sign(userId) },
      });
      if (!response.ok || !response.body) {
        throw new AppError(response.status >= 400 ? response.status : 502, 'An image of the batch could not be read.');
      }
      return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    },
  };
}

import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { generationInternalRoutes } from '@productgen/contracts';
import {
  AppError,
  createInternalApiClient,
  fetchWithTrace,
  USER_ID_HEADER,
  type InternalApiClient,
} from '@productgen/service-kit';

/** Generation's internal routes, plus its image downloads streamed as they are for the batch's Download All. */
export interface GenerationClient {
  api: InternalApiClient<typeof generationInternalRoutes>;
  /** One image (index -1: the original) of a user's generation, streamed. */
  openImage(userId: string, generationUuid: string, imageIndex: number): Promise<Readable>;
}

export function createGenerationClient(options: { baseUrl: string; timeoutMs: number }): GenerationClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    api: createInternalApiClient(generationInternalRoutes, {
      baseUrl: options.baseUrl,
      target: 'generation',
      timeoutMs: options.timeoutMs,
    }),
    async openImage(userId, generationUuid, imageIndex) {
      // The same download route the gateway forwards to, called as the gateway does (the verified user in a header).
      const response = await fetchWithTrace(`${base}/download/${generationUuid}/image/${imageIndex}`, {
        headers: { [USER_ID_HEADER]: userId },
      });
      if (!response.ok || !response.body) {
        throw new AppError(response.status >= 400 ? response.status : 502, 'An image of the batch could not be read.');
      }
      return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    },
  };
}

/// <reference lib="webworker" />
// The eraser's fill (PatchMatch inpainting), off the page's thread.
import { inpaint } from '../algorithms/patchmatch-inpaint';
import type { FillReply, FillRequest } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

function post(message: FillReply, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

self.onmessage = (event: MessageEvent<FillRequest>) => {
  const request = event.data;
  try {
    if (request.type === 'ping') {
      post({ type: 'done', id: request.id });
      return;
    }
    const data = inpaint(request.data, request.width, request.height, request.mask);
    post({ type: 'image', id: request.id, data, width: request.width, height: request.height }, [data.buffer]);
  } catch (error) {
    post({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
};

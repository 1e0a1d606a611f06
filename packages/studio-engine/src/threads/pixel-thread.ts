import path from 'node:path';
import { RequestThread } from '../threads/request-thread';
import type { PixelTasks } from './pixel-tasks';

type TaskName = keyof PixelTasks;
type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string; stack?: string };

/**
 * The process's pixel thread: the studio's per-pixel JavaScript (procedural scenes, the cut-out's matte refinement,
 * the upscaler's tile packing, each image's composition and its encode) runs here, never on the main thread, so in
 * embedded mode every service's HTTP answers go on while an image renders, and the large buffers of a finished image
 * stay off the main V8 heap. Everything else in a render is libvips (libuv's threads) or the inference thread.
 */
class PixelThread {
  private readonly thread = new RequestThread<Reply>(path.join(__dirname, 'pixel-worker.js'), 'pixel thread');

  close(): Promise<void> {
    return this.thread.close();
  }

  /** Runs a task there. `transfer` hands memory over instead of copying it (the caller must not use it again). */
  async run<T extends TaskName>(
    task: T,
    args: Parameters<PixelTasks[T]>,
    transfer: ArrayBuffer[] = [],
  ): Promise<ReturnType<PixelTasks[T]>> {
    const reply = await this.thread.request({ task, args }, transfer);
    if (!reply.ok) {
      const error = new Error(reply.error);
      if (reply.stack) error.stack = reply.stack;
      throw error;
    }
    return reply.result as ReturnType<PixelTasks[T]>;
  }
}

export const pixelThread = new PixelThread();

/** For process shutdown and test teardown; the next task starts a new thread. */
export function closePixelThread(): Promise<void> {
  return pixelThread.close();
}

/** Bytes that crossed a thread arrive as a plain Uint8Array: the same memory as a Buffer. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Zeroed bytes in shared memory: they cross to and from the pixel thread without a copy, and stay usable on both sides. */
export function sharedBuffer(length: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(length));
}

import path from 'node:path';
import type { PixelTasks } from '../kernels/pixel-tasks';
import { RequestThread } from './request-thread';

type TaskName = keyof PixelTasks;
type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string; stack?: string };

/**
 * The process's pixel thread: the studio's per-pixel JavaScript (procedural scenes, the cut-out's matte refinement,
 * the upscaler's tile packing, each image's composition and its encode) runs here, never on the main thread, so in
 * embedded mode every service's HTTP answers go on while an image renders, and the large buffers of a finished image
 * stay off the main V8 heap. Everything else in a render is libvips (libuv's threads) or the inference thread.
 */
class PixelThread {
  private readonly thread = new RequestThread<Reply>(path.join(__dirname, 'pixel-thread-entry.js'), 'pixel thread');

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

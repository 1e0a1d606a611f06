import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PixelTasks } from './pixel-tasks';

type TaskName = keyof PixelTasks;
type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/**
 * The process's pixel thread: the studio's per-pixel JavaScript (procedural scenes, the cut-out's matte refinement,
 * the upscaler's tile packing) runs here, never on the main thread, so in embedded mode every service's HTTP answers
 * go on while an image renders. Everything else in a render is libvips (libuv's threads) or the inference thread.
 */
class PixelThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(__dirname, 'pixel-worker.js'));
    // Waiting callers keep the process alive; an idle pixel thread must not.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (!waiting) return;
      if (reply.ok) waiting.resolve(reply.result);
      else waiting.reject(new Error(reply.error));
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.failAll(new Error(`pixel thread exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    this.worker = undefined;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  /** Runs a task there. `transfer` hands memory over instead of copying it (the caller must not use it again). */
  run<T extends TaskName>(
    task: T,
    args: Parameters<PixelTasks[T]>,
    transfer: ArrayBuffer[] = [],
  ): Promise<ReturnType<PixelTasks[T]>> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, task, args }, transfer);
    });
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

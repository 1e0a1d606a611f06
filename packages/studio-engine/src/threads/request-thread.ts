import { Worker } from 'node:worker_threads';

/**
 * A worker thread that answers numbered requests: what the inference thread and the pixel thread share. It starts
 * on first use, is unref'd (waiting callers keep the process alive; an idle thread must not), fails every waiting
 * caller when it dies, and starts afresh on the next request.
 */
export class RequestThread<Reply extends { id: number }> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { worker: Worker; settled: Promise<unknown>; resolve: (reply: Reply) => void; reject: (error: Error) => void }
  >();

  /** `script`: the worker's file; `name`: how errors call it. */
  constructor(
    private readonly script: string,
    private readonly name: string,
  ) {}

  /** Sends `message` with a fresh id; `transfer` hands memory over instead of copying it. */
  request(message: Record<string, unknown>, transfer: readonly ArrayBuffer[] = []): Promise<Reply> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    let answer!: { resolve: (reply: Reply) => void; reject: (error: Error) => void };
    const reply = new Promise<Reply>((resolve, reject) => (answer = { resolve, reject }));
    this.pending.set(id, { worker, settled: reply.catch(() => undefined), ...answer });
    worker.postMessage({ ...message, id }, transfer);
    return reply;
  }

  /**
   * Ends the thread once it has answered what it was asked (a caller that gave up may have left a request running):
   * a thread ended in the middle of an onnxruntime run aborts the whole process. The next request starts a new one.
   */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    await Promise.all(
      [...this.pending.values()].filter((entry) => entry.worker === worker).map((entry) => entry.settled),
    );
    await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiting?.resolve(reply);
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.failAll(new Error(`${this.name} exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    this.worker = undefined;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

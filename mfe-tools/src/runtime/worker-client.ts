/** A request without its id (distributes over a union of request types). */
export type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * Request/answer over a worker's messages: each request carries an id, its answer (or progress) comes back with
 * it. A worker that fails to start or crashes rejects every pending request.
 */
export class WorkerClient<Request extends { id: number }, Reply extends { id: number; type: string }> {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (reply: Reply) => void; reject: (error: Error) => void; onProgress?: (reply: Reply) => void }
  >();

  constructor(private readonly worker: Worker) {
    worker.onmessage = (event: MessageEvent<Reply>) => {
      const entry = this.pending.get(event.data.id);
      if (!entry) return;
      if (event.data.type === 'progress') {
        entry.onProgress?.(event.data);
        return;
      }
      this.pending.delete(event.data.id);
      if (event.data.type === 'failed') entry.reject(new Error((event.data as unknown as { message: string }).message));
      else entry.resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      this.failAll(new Error(event.message || 'the worker failed to start'));
    };
  }

  request(
    message: WithoutId<Request>,
    transfer: Transferable[] = [],
    onProgress?: (reply: Reply) => void,
  ): Promise<Reply> {
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.failAll(new Error('stopped'));
  }

  private failAll(error: Error): void {
    for (const entry of this.pending.values()) entry.reject(error);
    this.pending.clear();
  }
}

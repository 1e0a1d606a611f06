// Worker creation lives alone here: webpack turns each `new Worker(new URL(…, import.meta.url))` into a worker
// chunk next to the microfrontend's other files (same origin, so it runs cross-origin isolated too).
export function spawnAiWorker(): Worker {
  return new Worker(new URL('../workers/ai.worker.ts', import.meta.url), { name: 'productgen-ai' });
}

export function spawnFillWorker(): Worker {
  return new Worker(new URL('../workers/fill.worker.ts', import.meta.url), { name: 'productgen-fill' });
}

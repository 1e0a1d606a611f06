import { useEffect, useState } from 'react';
import { TEXTS } from '../texts';
import type { AiReply, AiRequest } from '../workers/protocol';
import { MODEL_FILES, MODEL_SHA256, toolAssetUrl, type ToolModel } from './assets';
import { detectBackend, type DeviceBackend } from './backend';
import { readCachedModel, storeModel } from './model-cache';
import { WorkerClient } from './worker-client';

export type AiWorker = WorkerClient<AiRequest, AiReply>;

export type ModelState =
  | { phase: 'runtime' }
  | { phase: 'model'; device: DeviceBackend }
  | { phase: 'ready'; device: DeviceBackend; worker: AiWorker; loadSeconds: number }
  | { phase: 'error'; message: string };

/** Fetches a model file; a non-OK answer is the product's "Failed to fetch model: {status}". */
async function fetchModel(model: ToolModel): Promise<ArrayBuffer> {
  let response: Response;
  try {
    response = await fetch(toolAssetUrl(MODEL_FILES[model]));
  } catch {
    throw new Error(TEXTS.modelLoadFailed);
  }
  if (!response.ok) throw new Error(TEXTS.modelFetchFailed(response.status));
  return response.arrayBuffer();
}

/** The model from the browser's model cache when this build's file is there, else from the network (then cached). */
async function loadModelBytes(model: ToolModel): Promise<ArrayBuffer> {
  const sha256 = MODEL_SHA256[model];
  const cached = sha256 ? await readCachedModel(sha256) : undefined;
  if (cached) return cached;
  const bytes = await fetchModel(model);
  if (sha256) void storeModel(sha256, bytes, Object.values(MODEL_SHA256));
  return bytes;
}

/**
 * The one model loader of the tools: the runtime in a worker ("Loading AI Engine..."), then the model
 * ("Loading Model..."), then ready with the device backend; any failure is the Model Error state with SPEC §8's
 * text. The worker lives as long as the page.
 */
export function useAiModel(model: ToolModel, { allowGpu }: { allowGpu: boolean }): ModelState {
  const [state, setState] = useState<ModelState>({ phase: 'runtime' });
  useEffect(() => {
    let cancelled = false;
    let client: AiWorker | undefined;
    const update = (next: ModelState) => {
      if (!cancelled) setState(next);
    };
    (async () => {
      const started = performance.now();
      // The model file (from the model cache or the network) comes while the runtime starts.
      const modelBytes = loadModelBytes(model);
      modelBytes.catch(() => undefined);
      const device = await detectBackend(allowGpu);
      if (typeof Worker === 'undefined') throw new Error(TEXTS.runtimeScriptFailed);
      const { spawnAiWorker } = await import('./spawn-workers');
      client = new WorkerClient<AiRequest, AiReply>(spawnAiWorker());
      try {
        const initialised = await client.request({ type: 'init', backend: device.backend, threads: device.threads });
        if (initialised.type === 'done' && initialised.backend) device.backend = initialised.backend;
      } catch {
        throw new Error(TEXTS.runtimeScriptFailed);
      }
      if (cancelled) return;
      const runtimeReady = performance.now();
      update({ phase: 'model', device });
      const bytes = await modelBytes;
      const bytesReady = performance.now();
      try {
        const loaded = await client.request({ type: 'load', model: bytes }, [bytes]);
        if (loaded.type === 'done' && loaded.backend) device.backend = loaded.backend;
      } catch {
        throw new Error(TEXTS.modelLoadFailed);
      }
      // Named measures: visible in the browser's performance panel and read by `npm run bench:tools`. The runtime
      // includes compiling onnxruntime's WebAssembly and starting its threads (the worker's warm-up), so the session
      // is the model's own.
      performance.measure(`${model} model load: runtime`, { start: started, end: runtimeReady });
      performance.measure(`${model} model load: waiting for the model file`, { start: runtimeReady, end: bytesReady });
      performance.measure(`${model} model load: session`, { start: bytesReady });
      performance.measure(`${model} model load`, { start: started });
      update({ phase: 'ready', device, worker: client, loadSeconds: (performance.now() - started) / 1000 });
    })().catch((error: unknown) => {
      update({ phase: 'error', message: error instanceof Error ? error.message : TEXTS.modelLoadFailed });
    });
    return () => {
      cancelled = true;
      client?.terminate();
    };
  }, [model, allowGpu]);
  return state;
}

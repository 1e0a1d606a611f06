/// <reference lib="webworker" />
// The tools' ONNX inference, off the page's thread so it never freezes: onnxruntime-web (the WebGPU build only
// when the page found a GPU adapter, else the WASM build), one session per worker, and the pre- and
// post-processing of the segmentation and upscaling models.
import type * as OrtModule from 'onnxruntime-web';
import type { RunModel } from '../inference/model-runner';
import { segmentProduct } from '../inference/segmentation';
import { upscaleImage } from '../inference/upscaling';
import type { AiReply, AiRequest, ExecutionBackend } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

/**
 * The smallest model (one Identity node, made with onnx-proto): creating its session makes onnxruntime compile and
 * instantiate its WebAssembly and start its threads at 'init', while the page still loads the real model's bytes.
 */
const RUNTIME_WARM_UP_MODEL = 'CAc6NwoQCgF4EgF5IghJZGVudGl0eRIBd1oPCgF4EgoKCAgBEgQKAggBYg8KAXkSCgoICAESBAoCCAFCAhAL';

let ort: typeof OrtModule | undefined;
let backend: ExecutionBackend = 'wasm';
let session: OrtModule.InferenceSession | undefined;

function post(message: AiReply, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

async function createSession(model: ArrayBuffer): Promise<OrtModule.InferenceSession> {
  if (!ort) throw new Error('runtime not initialised');
  if (backend === 'webgpu') {
    try {
      // The GPU provider lays out the nodes it takes its own way.
      return await ort.InferenceSession.create(new Uint8Array(model), {
        graphOptimizationLevel: 'all',
        executionProviders: ['webgpu'],
      });
    } catch {
      // SPEC §8: a failing GPU provider falls back to plain WASM execution.
      backend = 'wasm';
    }
  }
  // The build saved the file with every optimization the WASM provider would make (build/prepare-assets.js).
  return ort.InferenceSession.create(new Uint8Array(model), {
    graphOptimizationLevel: 'disabled',
    executionProviders: ['wasm'],
  });
}

const run: RunModel = async (input, dims) => {
  if (!ort || !session) throw new Error('model not loaded');
  const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', input, dims) };
  const outputs = await session.run(feeds);
  const output = outputs[session.outputNames[0]];
  const data = output.data as Float32Array;
  for (const tensor of Object.values(outputs)) if (tensor !== output) tensor.dispose();
  return { data, dims: output.dims };
};

async function handle(request: AiRequest): Promise<void> {
  switch (request.type) {
    case 'init': {
      ort =
        request.backend === 'webgpu' ? await import('onnxruntime-web/webgpu') : await import('onnxruntime-web/wasm');
      backend = request.backend;
      ort.env.wasm.numThreads = request.threads;
      const warmUp = await ort.InferenceSession.create(
        Uint8Array.from(atob(RUNTIME_WARM_UP_MODEL), (char) => char.charCodeAt(0)),
        { executionProviders: ['wasm'] },
      );
      await warmUp.release();
      post({ type: 'done', id: request.id, backend });
      return;
    }
    case 'load': {
      session = await createSession(request.model);
      post({ type: 'done', id: request.id, backend });
      return;
    }
    case 'segment': {
      const { alpha, timings } = await segmentProduct(request, run);
      post({ type: 'alpha', id: request.id, alpha, timings }, [alpha.buffer]);
      return;
    }
    case 'upscale': {
      const result = await upscaleImage(request, run, (done, total) =>
        post({ type: 'progress', id: request.id, done, total }),
      );
      post({ type: 'image', id: request.id, ...result }, [result.data.buffer]);
      return;
    }
  }
}

self.onmessage = (event: MessageEvent<AiRequest>) => {
  handle(event.data).catch((error: unknown) =>
    post({ type: 'failed', id: event.data.id, message: error instanceof Error ? error.message : String(error) }),
  );
};

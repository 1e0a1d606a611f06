import { Worker } from 'node:worker_threads';
import type { RunModel } from '../../src/inference/model-runner';

/**
 * Where a model runs in Node: onnxruntime-node as the studio runs it, or onnxruntime-web's WASM build, the browser's
 * own runtime, on one thread and with the session options of the browser's AI worker (src/workers/ai.worker.ts).
 */
export type NodeRuntime = 'onnxruntime-node' | 'onnxruntime-web';

// onnxruntime-node builds its output tensors with the process's own Float32Array, which fails the type check of
// the onnxruntime-common copy loaded inside jest's sandbox. Sessions therefore live in a worker thread (as in the
// generation service) and tensors cross as plain buffers.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.runtimePath);
const web = workerData.runtime === 'onnxruntime-web';
if (web) ort.env.wasm.numThreads = 1;
const options = web ? { executionProviders: ['wasm'], graphOptimizationLevel: 'disabled' } : {};
let session;
parentPort.on('message', async (message) => {
  try {
    if (message.model) {
      session = await ort.InferenceSession.create(new Uint8Array(message.model), options);
      parentPort.postMessage({ id: message.id });
      return;
    }
    const outputs = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', new Float32Array(message.input), message.dims) });
    const output = outputs[session.outputNames[0]];
    const data = Float32Array.from(output.data);
    parentPort.postMessage({ id: message.id, output: data.buffer, dims: output.dims }, [data.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error) });
  }
});`;

export interface NodeModel {
  run: RunModel;
  close(): Promise<number>;
}

/** A model session in a worker thread (onnxruntime-node unless told), with the browser worker's RunModel signature. */
export async function loadNodeModel(model: Uint8Array, runtime: NodeRuntime = 'onnxruntime-node'): Promise<NodeModel> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { runtime, runtimePath: require.resolve(runtime) },
  });
  let nextId = 1;
  const call = (message: Record<string, unknown>, transfer: ArrayBuffer[] = []) =>
    new Promise<{ output?: ArrayBuffer; dims?: number[] }>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (reply: { id: number; error?: string; output?: ArrayBuffer; dims?: number[] }) => {
        if (reply.id !== id) return;
        worker.off('message', onMessage);
        if (reply.error) reject(new Error(reply.error));
        else resolve(reply);
      };
      worker.on('message', onMessage);
      worker.postMessage({ ...message, id }, transfer);
    });
  const copy = Uint8Array.from(model);
  await call({ model: copy.buffer }, [copy.buffer]);
  return {
    run: async (input, dims) => {
      const inputCopy = Float32Array.from(input);
      const reply = await call({ input: inputCopy.buffer, dims }, [inputCopy.buffer]);
      return { data: new Float32Array(reply.output as ArrayBuffer), dims: reply.dims ?? [] };
    },
    close: () => worker.terminate(),
  };
}

/** A loader for the calling suite: every model it loads is closed once the suite's tests have run. */
export function suiteModelLoader(): (model: Uint8Array, runtime?: NodeRuntime) => Promise<NodeModel> {
  const models: NodeModel[] = [];
  afterAll(() => Promise.all(models.map((model) => model.close())));
  return async (model, runtime) => {
    const loaded = await loadNodeModel(model, runtime);
    models.push(loaded);
    return loaded;
  };
}

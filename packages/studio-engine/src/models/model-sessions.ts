import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { hostCpu } from '@productgen/host-cpu';
import { RequestThread } from '../threads/request-thread';
import {
  chooseInt8Kernels,
  describeInt8KernelPlan,
  forInt8Kernels,
  quantizedModels,
  type Int8KernelPlan,
  type Int8Kernels,
} from './int8-kernels';
import { ensureModels, type ModelFiles, type ModelName } from './model-store';

/** One model: a float32 tensor in, its first output back. */
export interface InferenceModel {
  run(input: Float32Array, dims: readonly number[]): Promise<{ data: Float32Array; dims: number[] }>;
}

type Reply =
  | { id: number; ok: true; output?: ArrayBuffer; dims?: number[] }
  | { id: number; ok: false; error: string; unloadedInput?: ArrayBuffer };

/**
 * The process's inference thread. onnxruntime-node runs a session synchronously on the calling thread, so it lives
 * in a worker thread: the event loop stays free and the main thread composes images while a model runs (both
 * cores busy). Sessions are created there once per model file and reused for the life of the process.
 */
class InferenceThread {
  private readonly thread = new RequestThread<Reply>(
    path.join(__dirname, '..', 'threads', 'inference-thread-entry.js'),
    'inference thread',
  );

  /** Ends the thread (its sessions go with it); the next call starts a new one. */
  close(): Promise<void> {
    return this.thread.close();
  }

  /** Creates the session of `key` from the model's bytes (copied to the thread), its runs on `threads` threads. */
  load(key: string, model: Uint8Array, { threads, floatReference }: SessionOptions): Promise<Reply> {
    return this.thread.request({ key, model, threads, floatReference });
  }

  run(key: string, input: Float32Array, dims: readonly number[]): Promise<Reply> {
    // The input's memory is handed over, not copied; callers build a fresh array per call.
    const buffer =
      input.byteOffset === 0 && input.byteLength === input.buffer.byteLength ? input.buffer : input.slice().buffer;
    return this.thread.request({ key, input: buffer, dims: [...dims] }, [buffer as ArrayBuffer]);
  }
}

const thread = new InferenceThread();
const runtimes = new Map<string, Promise<ModelRuntime>>();

/** For process shutdown and test teardown: stops the inference thread (loaded runtimes reload on next use). */
export async function closeInferenceThread(): Promise<void> {
  runtimes.clear();
  await thread.close();
}

export interface SessionOptions {
  /** Threads each run may use (onnxruntime's intra-op threads); unset: one per core (`INFERENCE_THREADS`). */
  threads?: number;
  /**
   * Tests' float32 references only: onnxruntime's QDQ fusion off, so DequantizeLinear → op → QuantizeLinear chains
   * run in float rather than being fused back into integer operators.
   */
  floatReference?: boolean;
}

export interface RuntimeOptions {
  threads?: number;
  /** The integer kernels each quantized model runs on; unset: chosen for this CPU (`chooseInt8Kernels`). */
  int8Kernels?: Int8KernelPlan;
}

/** A model's key for one thread count: each count is its own session. */
const withThreads = (key: string, threads: number | undefined) => `${key}@${threads ?? 'all'}`;

/**
 * A model on the inference thread. `key` names its session there (one per key and thread count); `bytes` are kept
 * to load it again if the thread was restarted. `label` names it in errors.
 */
export async function openModel(
  key: string,
  bytes: Uint8Array,
  label = key,
  options: SessionOptions = {},
): Promise<InferenceModel> {
  const sessionKey = withThreads(key, options.threads);
  const load = async () => {
    const loaded = await thread.load(sessionKey, bytes, options);
    if (!loaded.ok) throw new Error(`model ${label} could not be loaded: ${loaded.error}`);
  };
  await load();
  return {
    async run(input, dims) {
      let reply = await thread.run(sessionKey, input, dims);
      if (!reply.ok && reply.unloadedInput) {
        // A restarted thread has no sessions: load it again and send the input it handed back.
        await load();
        reply = await thread.run(sessionKey, new Float32Array(reply.unloadedInput), dims);
      }
      if (!reply.ok) throw new Error(`inference with ${label} failed: ${reply.error}`);
      return { data: new Float32Array(reply.output!), dims: reply.dims! };
    },
  };
}

async function openModelOf(
  files: ModelFiles,
  name: ModelName,
  threads: number | undefined,
  kernels: Int8Kernels,
): Promise<InferenceModel> {
  const file = files.pathOf(name);
  const bytes = forInt8Kernels(await files.read(name), kernels);
  return openModel(`${file}#${name}#${kernels}`, bytes, path.basename(file), { threads });
}

export interface ModelRuntime {
  segmentation: InferenceModel;
  classifier: InferenceModel;
  upscaler: InferenceModel;
  /** ImageNet class names, index = class. */
  labels: readonly string[];
  /** The integer kernels each of the three models runs on, and why. */
  int8Kernels: Int8KernelPlan;
}

const labelsSchema = z.array(z.string()).length(1000);

async function load(
  files: ModelFiles,
  threads: number | undefined,
  int8Kernels: Int8KernelPlan,
): Promise<ModelRuntime> {
  const [segmentation, classifier, upscaler, labelsText] = await Promise.all([
    openModelOf(files, 'segmentation', threads, int8Kernels.segmentation.kernels),
    openModelOf(files, 'classifier', threads, int8Kernels.classifier.kernels),
    openModelOf(files, 'upscaler', threads, int8Kernels.upscaler.kernels),
    readFile(files.pathOf('labels'), 'utf8'),
  ]);
  return { segmentation, classifier, upscaler, labels: labelsSchema.parse(JSON.parse(labelsText)), int8Kernels };
}

/** The three models and the labels of one model folder, loaded once per process (per thread count and kernels). */
export function loadModelRuntime(files: ModelFiles, options: RuntimeOptions = {}): Promise<ModelRuntime> {
  const int8Kernels = options.int8Kernels ?? chooseInt8Kernels(hostCpu());
  const key = `${withThreads(files.dir, options.threads)}#${quantizedModels.map((model) => int8Kernels[model].kernels).join('/')}`;
  let runtime = runtimes.get(key);
  if (!runtime) {
    runtime = load(files, options.threads, int8Kernels);
    runtime.catch(() => runtimes.delete(key));
    runtimes.set(key, runtime);
  }
  return runtime;
}

/** Where the models are and how they run: what a service's configuration says (the generation service's env). */
export interface ModelSettings {
  /** The model folder (`MODELS_DIR`); relative paths are taken from the repository root. */
  MODELS_DIR: string;
  /** Missing files are copied from here (`SHARED_MODELS_DIR`); unset: only downloads fill `MODELS_DIR`. */
  SHARED_MODELS_DIR?: string;
  /** Threads of each model run (`INFERENCE_THREADS`); unset: one per core. */
  INFERENCE_THREADS?: number;
  /** The integer kernels (`INT8_KERNELS`): auto chooses for this CPU. */
  INT8_KERNELS?: 'auto' | Int8Kernels;
}

/**
 * The models as the settings ask for them: the model folders (checked and filled at start), threads and int8
 * kernels. The engine and every benchmark load them this way.
 */
export async function loadConfiguredRuntime(config: ModelSettings): Promise<ModelRuntime> {
  return loadModelRuntime(await ensureModels(config.MODELS_DIR, config.SHARED_MODELS_DIR), {
    threads: config.INFERENCE_THREADS,
    int8Kernels: chooseInt8Kernels(hostCpu(), config.INT8_KERNELS),
  });
}

/** The line the service logs and the benchmarks print: which kernels each model runs, and why. */
export const describeInt8Kernels = ({ int8Kernels }: ModelRuntime): string => describeInt8KernelPlan(int8Kernels);

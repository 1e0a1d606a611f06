import { classifyProduct, type ProductAnalysis } from './analysis/classify';
import type { AnalysisHints } from './analysis/product-guess';
import { describeInt8Kernels, loadConfiguredRuntime, type ModelSettings } from './models/model-sessions';
import type { Int8KernelPlan } from './models/int8-kernels';
import { StudioRenderer, type StudioOptions } from './render/studio';
import { closeStudioThreads } from './threads/studio-threads';

export interface StudioEngineOptions {
  /** Where the model files are and how they run. */
  models: ModelSettings;
  /** Sizes of the images and the watermark's text. */
  render: StudioOptions;
}

/** The studio engine of one process: its models loaded, its threads started on first use. */
export interface StudioEngine {
  /** The integer kernels each quantized model runs on, and why. */
  readonly int8Kernels: Int8KernelPlan;
  /** One line for the logs: which kernels the models run, and why. */
  describeModels(): string;
  /**
   * Names the product in a photo and its category, and gives the matte it was cut out by. The seller's hints (the
   * file name, the shop's categories) weigh in when given.
   */
  analysePhoto(photo: Buffer, hints?: AnalysisHints): Promise<ProductAnalysis>;
  /** Renders a generation's images from a photo and its recipes (cut-out, backdrops, base and finished images). */
  readonly renderer: StudioRenderer;
  /** Ends the engine's threads (inference and pixels) once their work in hand is done. */
  close(): Promise<void>;
}

/**
 * Loads the models (a missing or damaged file stops it here, naming the command that fixes it) and gives the
 * engine. Models and threads are the process's: engines made with the same settings share them, and `close` ends
 * the threads for all of them (the next call starts them again).
 */
export async function createStudioEngine(options: StudioEngineOptions): Promise<StudioEngine> {
  const runtime = await loadConfiguredRuntime(options.models);
  return {
    int8Kernels: runtime.int8Kernels,
    describeModels: () => describeInt8Kernels(runtime),
    analysePhoto: (photo, hints) => classifyProduct(runtime, photo, hints),
    renderer: new StudioRenderer(runtime, options.render),
    close: closeStudioThreads,
  };
}

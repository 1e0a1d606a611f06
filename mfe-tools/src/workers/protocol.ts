import type { SegmentationTimings } from '../inference/segmentation';

/** Messages between a tool page and its inference worker (workers/ai.worker.ts). */
export type ExecutionBackend = 'webgpu' | 'wasm';

export type AiRequest =
  | { type: 'init'; id: number; backend: ExecutionBackend; threads: number }
  | { type: 'load'; id: number; model: ArrayBuffer }
  | { type: 'segment'; id: number; data: Uint8ClampedArray; width: number; height: number }
  | { type: 'upscale'; id: number; data: Uint8ClampedArray; width: number; height: number };

export type AiReply =
  | { type: 'done'; id: number; backend?: ExecutionBackend }
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'alpha'; id: number; alpha: Uint8ClampedArray; timings: SegmentationTimings }
  | { type: 'image'; id: number; data: Uint8ClampedArray; width: number; height: number }
  | { type: 'failed'; id: number; message: string };

/** Messages of the eraser's fill worker (workers/fill.worker.ts). */
export type FillRequest =
  | { type: 'ping'; id: number }
  | { type: 'fill'; id: number; data: Uint8ClampedArray; width: number; height: number; mask: Uint8Array };

export type FillReply =
  | { type: 'done'; id: number }
  | { type: 'image'; id: number; data: Uint8ClampedArray; width: number; height: number }
  | { type: 'failed'; id: number; message: string };

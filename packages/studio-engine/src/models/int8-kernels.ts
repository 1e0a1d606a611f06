import { onnx } from 'onnx-proto';
import type { HostCpu } from '@productgen/host-cpu';
import { DataType, int8Values, tensorLike, type Node, type Tensor } from './onnx-graph';

/*
 * Which integer kernels the quantized models run on, so that every x86-64 server gives the same answers.
 *
 * All three models multiply uint8 activations by int8 weights. onnxruntime runs that (u8×s8) with VNNI dot products
 * where the CPU has AVX-512 VNNI or AVX-VNNI: 32-bit sums, exact. Without VNNI it uses VPMADDUBSW, which adds two
 * products into a signed 16-bit lane and saturates there (255 × 127 × 2 > 32767): on an AVX2-only CPU the
 * classifier called high-top sneakers a "safety pin" and the category accuracy on the test photos fell from 86 % to
 * 72 %. The same weights stored as uint8 (w + 128, zero point + 128: the same values) make onnxruntime pick its
 * u8×u8 kernels, which widen to 16 bits before multiplying and never saturate. Both paths compute the same integer
 * sums, so the models answer alike on every CPU; u8×s8 is kept where it is exact because VNNI runs it fastest.
 */

export const int8KernelKinds = ['u8s8', 'u8u8'] as const;
export type Int8Kernels = (typeof int8KernelKinds)[number];

/** The three quantized models, each on its own kernels. */
export const quantizedModels = ['classifier', 'segmentation', 'upscaler'] as const;
export type QuantizedModel = (typeof quantizedModels)[number];

export interface Int8KernelChoice {
  kernels: Int8Kernels;
  /**
   * Why, for the start-up log and /metrics: `vnni`, `no-vnni`, `unknown-cpu`, `configured`, or `within-tolerance`
   * (u8×s8 without VNNI for a model whose saturated sums were measured to stay within UPSCALER_SATURATION_TOLERANCE).
   */
  reason: 'vnni' | 'no-vnni' | 'unknown-cpu' | 'configured' | 'within-tolerance';
  /** One sentence for the log. */
  explanation: string;
}

/** Each model's kernels on this CPU. */
export type Int8KernelPlan = Readonly<Record<QuantizedModel, Int8KernelChoice>>;

/**
 * How far the upscaler's u8×s8 output may be from the exact integer one (u8×u8) where the CPU has no VNNI, per
 * 8-bit output crop. Measured on an AMD EPYC with AVX2 only (306 64-px crops, 3 from each of the 102 test and eval
 * photos): 226 identical, the rest 61.5–90 dB, at most 0.032 % of output values moved (a few isolated pixels, up to
 * 41 levels); against float32 the PSNR is the same to 0.01 dB (the quantization itself costs 33–39 dB). The
 * upscaler's weights have one scale per tensor, so few pairs of large same-sign weights meet large activations.
 * The classifier and segmenter saturate far more (segmenter masks IoU 0.72 against exact on a real photo; 12 of 36
 * names changed), so they stay exact.
 */
export const UPSCALER_SATURATION_TOLERANCE = { minPsnr: 55, maxMovedShare: 0.001 } as const;

const exactOnThisCpu = (cpu: HostCpu): Int8KernelChoice => {
  if (process.arch === 'x64' && cpu.vnni === true) {
    return {
      kernels: 'u8s8',
      reason: 'vnni',
      explanation: `${cpu.vnniFlags.join(', ')}: u8×s8 dot products accumulate in 32 bits (exact, fastest)`,
    };
  }
  return cpu.vnni === false
    ? {
        kernels: 'u8u8',
        reason: 'no-vnni',
        explanation: 'no VNNI: u8×s8 kernels would saturate at 16 bits, u8×u8 kernels are exact',
      }
    : {
        kernels: 'u8u8',
        reason: 'unknown-cpu',
        explanation: `${process.arch} CPU whose VNNI support is unknown: u8×u8 kernels are exact on every CPU`,
      };
};

/**
 * Each model's kernels: u8×s8 where VNNI makes it exact; without VNNI the classifier and segmenter on u8×u8
 * (exact), and the upscaler on u8×s8 on x86-64 (twice as fast there; its rare saturated sums stay within
 * UPSCALER_SATURATION_TOLERANCE). A configured path (`INT8_KERNELS`) is taken for every model as it is.
 */
export function chooseInt8Kernels(cpu: HostCpu, configured: Int8Kernels | 'auto' = 'auto'): Int8KernelPlan {
  if (configured !== 'auto') {
    const exact = configured === 'u8u8' || cpu.vnni === true;
    const choice: Int8KernelChoice = {
      kernels: configured,
      reason: 'configured',
      explanation: `INT8_KERNELS=${configured}${exact ? '' : ': this CPU has no VNNI, so u8×s8 sums can saturate and answers differ from other servers'}`,
    };
    return { classifier: choice, segmentation: choice, upscaler: choice };
  }
  const exact = exactOnThisCpu(cpu);
  const upscaler: Int8KernelChoice =
    exact.reason === 'no-vnni' && process.arch === 'x64'
      ? {
          kernels: 'u8s8',
          reason: 'within-tolerance',
          explanation:
            'no VNNI: u8×s8 sums can saturate, measured within tolerance for this model (≥ 55 dB from exact), twice as fast as u8×u8',
        }
      : exact;
  return { classifier: exact, segmentation: exact, upscaler };
}

/** The line the service logs and the benchmarks print: each model's kernels, and why (models alike grouped). */
export function describeInt8KernelPlan(plan: Int8KernelPlan): string {
  const groups = new Map<string, QuantizedModel[]>();
  for (const model of quantizedModels) {
    const { kernels, explanation } = plan[model];
    const key = `${kernels} int8 kernels (${explanation})`;
    groups.set(key, [...(groups.get(key) ?? []), model]);
  }
  const names = (models: QuantizedModel[]) =>
    models.length === 1 ? models[0] : `${models.slice(0, -1).join(', ')} and ${models.at(-1)}`;
  return [...groups]
    .map(([key, models]) => `${names(models)} ${models.length === 1 ? 'runs' : 'run'} ${key}`)
    .join('; ');
}

/** Initializers named as a node's int8 weight and its zero point: [weight, zero point]. */
function weightInputs(n: Node, initializers: Map<string, Tensor>): Array<[string, string]> {
  if (n.opType === 'QLinearConv' || n.opType === 'QLinearMatMul') return [[n.input[3]!, n.input[5]!]];
  // A QDQ graph's weights: DequantizeLinear of an int8 initializer (activations are uint8 and never initializers).
  if (n.opType === 'DequantizeLinear' && initializers.get(n.input[0]!)?.dataType === DataType.INT8) {
    return [[n.input[0]!, n.input[2]!]];
  }
  return [];
}

const shifted = (tensor: Tensor) => {
  const values = int8Values(tensor);
  const unsigned = new Uint8Array(values.length);
  for (let k = 0; k < values.length; k += 1) unsigned[k] = values[k]! + 128;
  return tensorLike(tensor, tensor.name, DataType.UINT8, unsigned);
};

/**
 * The same model with every int8 weight and its zero point stored as uint8 (+128): identical values, run by
 * onnxruntime's u8×u8 kernels. A model without int8 weights comes back as it is.
 */
export function withUnsignedWeights(model: Uint8Array): Uint8Array {
  const decoded = onnx.ModelProto.decode(model);
  const graph = decoded.graph as onnx.GraphProto;
  const initializers = new Map((graph.initializer as Tensor[]).map((tensor) => [tensor.name, tensor]));
  const toShift = new Set<string>();
  for (const n of graph.node as Node[]) {
    for (const [weight, zeroPoint] of weightInputs(n, initializers)) {
      if (initializers.get(weight)?.dataType !== DataType.INT8) continue;
      if (initializers.get(zeroPoint)?.dataType !== DataType.INT8) {
        throw new Error(`${n.name}: int8 weight ${weight} without an int8 zero-point initializer`);
      }
      toShift.add(weight).add(zeroPoint);
    }
  }
  if (toShift.size === 0) return model;
  graph.initializer = (graph.initializer as Tensor[]).map((tensor) =>
    toShift.has(tensor.name) ? shifted(tensor) : tensor,
  );
  return onnx.ModelProto.encode(decoded).finish();
}

/** The model as it runs on these kernels. */
export const forInt8Kernels = (model: Uint8Array, kernels: Int8Kernels): Uint8Array =>
  kernels === 'u8u8' ? withUnsignedWeights(model) : model;

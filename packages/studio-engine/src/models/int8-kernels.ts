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

export interface Int8KernelChoice {
  kernels: Int8Kernels;
  /** Why, for the start-up log and /metrics: `vnni`, `no-vnni`, `unknown-cpu` or `configured`. */
  reason: 'vnni' | 'no-vnni' | 'unknown-cpu' | 'configured';
  /** One sentence for the log. */
  explanation: string;
}

/** u8×s8 only where VNNI makes it exact; u8×u8 everywhere else, or as configured (`INT8_KERNELS`). */
export function chooseInt8Kernels(cpu: HostCpu, configured: Int8Kernels | 'auto' = 'auto'): Int8KernelChoice {
  if (configured !== 'auto') {
    const exact = configured === 'u8u8' || cpu.vnni === true;
    return {
      kernels: configured,
      reason: 'configured',
      explanation: `INT8_KERNELS=${configured}${exact ? '' : ': this CPU has no VNNI, so u8×s8 sums can saturate and answers differ from other servers'}`,
    };
  }
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

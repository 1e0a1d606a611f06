import { onnx } from 'onnx-proto';
import {
  addFloatOutputs,
  DataType,
  floatValues,
  gridTensors,
  node,
  scalar,
  tensorLike,
  uint8Grid,
  type Grid,
  type Node,
  type Tensor,
} from './onnx-graph';
import { SEGMENTATION_ACTIVATION_RANGES } from './segmentation-ranges';

/*
 * U²-Net small (the product cut-out's segmenter) as a statically quantized QDQ graph, rewritten from the supplied
 * `u2netp-fp16.onnx`. onnxruntime runs the fp16 file as float32 (it folds the casts): ~450 ms of CPU per 320² run.
 * Here every convolution that feeds a Relu reads a uint8 activation and int8 weights:
 *
 *   … ─ QuantizeLinear ─ DequantizeLinear ─ Conv(DequantizeLinear(int8 w), DequantizeLinear(int32 b)) ─ Relu ─
 *       QuantizeLinear ─ DequantizeLinear ─ …
 *
 * which onnxruntime fuses into QLinearConv (the Relu folds into the uint8 grid, whose zero is its floor): ~220 ms.
 * Pooling, upsampling, concatenation, the side outputs and their sigmoids stay float. Weights are quantized per
 * tensor (per-channel scales need opset 13; the file is opset 11), symmetric, from the file's own values.
 * Activation grids come from calibration (calibrate-segmentation-cli.ts); the rewrite is pure arithmetic on the
 * file's bytes and that table, so it always gives the same bytes, checked against the manifest's sha256.
 */

/**
 * Kept float: the last two convolutions of the second decoder stage. One channel of Conv_765's output reaches
 * ~230 where every other activation of the net stays under ~30; on one uint8 grid for the whole tensor that
 * crushes the other channels, and the finest side output (the one the fused map follows most) loses the product
 * (mask IoU against the shipped model ~0.3 with them quantized, ~0.99 without).
 */
export const FLOAT_CONVS: readonly string[] = ['Conv_765', 'Conv_787'];

const FLOAT16 = DataType.FLOAT16;

/**
 * The file as a float32 graph: float16 initializers and constants widened, casts to float16 made casts to float
 * (no-ops onnxruntime removes), and the recorded value types dropped (onnxruntime infers them again).
 */
function widened(fp16Model: Uint8Array): { model: onnx.ModelProto; graph: onnx.GraphProto } {
  const model = onnx.ModelProto.decode(fp16Model);
  const graph = model.graph as onnx.GraphProto;
  const widen = (tensor: Tensor) =>
    tensor.dataType === FLOAT16 ? tensorLike(tensor, tensor.name, DataType.FLOAT, floatValues(tensor)) : tensor;
  graph.initializer = (graph.initializer as Tensor[]).map(widen);
  for (const n of graph.node as Node[]) {
    for (const attribute of n.attribute as onnx.AttributeProto[]) {
      if (attribute.t) attribute.t = widen(attribute.t as Tensor);
      if (n.opType === 'Cast' && attribute.name === 'to' && Number(attribute.i) === FLOAT16) {
        attribute.i = DataType.FLOAT;
      }
    }
  }
  graph.valueInfo = [];
  return { model, graph };
}

interface Plan {
  model: onnx.ModelProto;
  graph: onnx.GraphProto;
  /** The convolutions made QLinearConv: those whose one consumer is a Relu, but FLOAT_CONVS. */
  convs: Set<Node>;
  /** The activations put on uint8 grids, in graph order: those convolutions' inputs and their Relus' outputs. */
  activations: string[];
}

function plan(fp16Model: Uint8Array, floatConvs: readonly string[]): Plan {
  const { model, graph } = widened(fp16Model);
  const nodes = graph.node as Node[];
  const consumers = new Map<string, Node[]>();
  for (const n of nodes) for (const input of n.input) consumers.set(input, [...(consumers.get(input) ?? []), n]);
  const reluAfter = (conv: Node) => {
    const next = consumers.get(conv.output[0]!) ?? [];
    return next.length === 1 && next[0]!.opType === 'Relu' ? next[0] : undefined;
  };
  const convs = nodes.filter((n) => n.opType === 'Conv' && reluAfter(n) && !floatConvs.includes(n.name));
  const activations = new Set(convs.flatMap((conv) => [conv.input[0]!, reluAfter(conv)!.output[0]!]));
  return { model, graph, convs: new Set(convs), activations: [...activations] };
}

/** The float32 model (the reference and the calibration model); `withActivations` adds the quantized ones as outputs. */
export function float32Segmenter(fp16Model: Uint8Array, withActivations = false): Uint8Array {
  const { model, graph, activations } = plan(fp16Model, []);
  if (withActivations) addFloatOutputs(graph, activations);
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Names of the activations a quantized model puts on uint8 grids (the keys of the ranges table); with no float
 * convolutions, the table also serves the test's control, which quantizes FLOAT_CONVS too.
 */
export function segmenterActivations(fp16Model: Uint8Array, floatConvs: readonly string[] = []): string[] {
  return plan(fp16Model, floatConvs).activations;
}

/** One convolution's int8 weights and int32 bias with their DequantizeLinear nodes; the conv reads their outputs. */
function quantizeConv(
  conv: Node,
  weights: Map<string, Tensor>,
  input: Grid,
): { nodes: Node[]; initializers: Tensor[] } {
  const n = conv.name;
  const weight = weights.get(conv.input[1]!)!;
  const bias = weights.get(conv.input[2]!);
  if (!bias) throw new Error(`segmenter: ${n} has no bias`);
  const values = floatValues(weight);
  let largest = 0;
  for (const value of values) largest = Math.max(largest, Math.abs(value));
  const weightScale = Math.fround(largest / 127) || 1;
  const biasScale = Math.fround(input.scale * weightScale);
  // A plain loop: Int8Array.from with a mapping function is far slower on the million weights.
  const int8 = new Int8Array(values.length);
  for (let k = 0; k < values.length; k += 1) int8[k] = Math.round(values[k]! / weightScale);
  const int32Bias = Int32Array.from(floatValues(bias), (value) => Math.round(value / biasScale));
  const initializers = [
    tensorLike(weight, `${n}.w`, DataType.INT8, int8),
    scalar(`${n}.w.scale`, DataType.FLOAT, Float32Array.of(weightScale)),
    scalar(`${n}.w.zero`, DataType.INT8, Int8Array.of(0)),
    tensorLike(bias, `${n}.b`, DataType.INT32, int32Bias),
    scalar(`${n}.b.scale`, DataType.FLOAT, Float32Array.of(biasScale)),
    scalar(`${n}.b.zero`, DataType.INT32, Int32Array.of(0)),
  ];
  const dequantize = (part: string) =>
    node(
      'DequantizeLinear',
      `${n}.${part}.dq`,
      [`${n}.${part}`, `${n}.${part}.scale`, `${n}.${part}.zero`],
      [`${n}.${part}.f`],
    );
  conv.input = [conv.input[0]!, `${n}.w.f`, `${n}.b.f`];
  return { nodes: [dequantize('w'), dequantize('b')], initializers };
}

/** The statically quantized QDQ model (see the top of this file). */
export function quantizedSegmenter(
  fp16Model: Uint8Array,
  ranges: Readonly<Record<string, readonly [number, number]>> = SEGMENTATION_ACTIVATION_RANGES,
  floatConvs: readonly string[] = FLOAT_CONVS,
): Uint8Array {
  const { model, graph, convs, activations } = plan(fp16Model, floatConvs);
  const grids = new Map<string, Grid>();
  const initializers: Tensor[] = [];
  for (const name of activations) {
    const range = ranges[name];
    if (!range) throw new Error(`segmenter: no calibrated range for ${name}`);
    grids.set(name, uint8Grid(range[0], range[1]));
    initializers.push(...gridTensors(name, grids.get(name)!));
  }
  // Every reader of a gridded activation reads it from the grid: Q → DQ right after it is made.
  const onGrid = (name: string) => [
    node('QuantizeLinear', `${name}.q`, [name, `${name}.scale`, `${name}.zero`], [`${name}.u8`]),
    node('DequantizeLinear', `${name}.dq`, [`${name}.u8`, `${name}.scale`, `${name}.zero`], [`${name}.f`]),
  ];
  const weights = new Map((graph.initializer as Tensor[]).map((t) => [t.name, t]));
  const replaced = new Set([...convs].flatMap((conv) => conv.input.slice(1)));
  const nodes: Node[] = graph.input.flatMap((input) => (grids.has(input.name!) ? onGrid(input.name!) : []));
  for (const original of graph.node as Node[]) {
    if (convs.has(original)) {
      const conv = quantizeConv(original, weights, grids.get(original.input[0]!)!);
      nodes.push(...conv.nodes);
      initializers.push(...conv.initializers);
    }
    original.input = original.input.map((input) => (grids.has(input) ? `${input}.f` : input));
    nodes.push(original, ...original.output.filter((output) => grids.has(output)).flatMap(onGrid));
  }
  graph.node = nodes;
  graph.initializer = [...(graph.initializer as Tensor[]).filter((t) => !replaced.has(t.name)), ...initializers];
  return onnx.ModelProto.encode(model).finish();
}

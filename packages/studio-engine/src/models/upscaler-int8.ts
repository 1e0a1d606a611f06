import { onnx } from 'onnx-proto';
import {
  addFloatOutputs,
  DataType,
  floatValues,
  gridTensors,
  int8Values,
  node,
  scalar,
  tensorBytes,
  tensorLike,
  uint8Grid,
  type Grid,
  type Node,
  type Tensor,
} from './onnx-graph';

/*
 * Real-ESRGAN general-x4v3 as onnxruntime runs it fastest on a CPU with VNNI: a statically quantized QDQ graph.
 *
 * The supplied file (`realesr-general-x4v3-int8.onnx`) already holds every convolution's weights as int8 with one
 * scale per tensor, but quantizes the activations at run time (DynamicQuantizeLinear + ConvInteger), which
 * onnxruntime runs ~7× slower than float32. Here each of those blocks becomes
 *
 *   DequantizeLinear(uint8 activation) ─┐
 *   DequantizeLinear(int8 weight) ──────┼─ Conv ─ QuantizeLinear(uint8) ─ DequantizeLinear ─ PRelu ─ QuantizeLinear …
 *   DequantizeLinear(int32 bias) ───────┘
 *
 * which onnxruntime fuses into QLinearConv (u8 × s8 VNNI kernels). The weights are the file's own int8 values, so
 * only the activations are newly rounded: each conv output is quantized once, on a fixed uint8 grid covering its
 * calibrated range, and the PRelu after it writes back onto the same grid (positive values pass exactly), itself
 * on uint8 grids (`preluOnGrid`). The rewrite is pure arithmetic on the file's bytes and the tables below: the same
 * input always gives the same output bytes, checked against the manifest's sha256.
 */

/**
 * Range [min, max] of every conv's float output, as printed by calibrate-upscaler-cli.ts (one 64² crop from every
 * second test photo, 18 in all; the others are kept for the quality check), rounded outward to 1/16. The whole
 * observed range is kept: clipping even the 0.01 % most extreme values cost 2–9 dB of PSNR against float32, more
 * than the coarser grid does.
 */
export const UPSCALER_ACTIVATION_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  'body.0': [-43.3125, 47.125],
  'body.2': [-74.9375, 99.3125],
  'body.4': [-63.625, 103.5],
  'body.6': [-53.4375, 100.0625],
  'body.8': [-49.6875, 98.125],
  'body.10': [-70.625, 103.25],
  'body.12': [-54.6875, 103.9375],
  'body.14': [-68.25, 103.25],
  'body.16': [-71.25, 102.8125],
  'body.18': [-63, 101.75],
  'body.20': [-63.3125, 101.5625],
  'body.22': [-72.4375, 103.5625],
  'body.24': [-70.3125, 103.25],
  'body.26': [-83.75, 104],
  'body.28': [-57.875, 102.5],
  'body.30': [-59.1875, 101.6875],
  'body.32': [-62.6875, 101.125],
  'body.34': [-65.6875, 101.375],
  'body.36': [-59.875, 101.625],
  'body.38': [-68.6875, 99.875],
  'body.40': [-70.9375, 99.75],
  'body.42': [-71.375, 96.625],
  'body.44': [-81.5, 91.875],
  'body.46': [-62, 86.125],
  'body.48': [-63.125, 81.6875],
  'body.50': [-65.6875, 64.1875],
  'body.52': [-70.0625, 52.3125],
  'body.54': [-45.625, 38.875],
  'body.56': [-36.25, 46.25],
  'body.58': [-47.3125, 41.875],
  'body.60': [-43.5, 26.5],
  'body.62': [-28.5, 18.1875],
  'body.64': [-24.5625, 13.6875],
  'body.66': [-0.75, 0.8125],
};

/**
 * Range of every PRelu's bend, (a − 1)·min(x, 0) per channel, over the same calibration crops (rounded outward to
 * 1/16; printed by calibrate-upscaler-cli.ts with the table above). Its uint8 grid is 1.3–3× finer than one made
 * from the conv's whole range and the extreme slopes.
 */
export const UPSCALER_BEND_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  'body.0': [-0.1875, 37.75],
  'body.2': [-0.5, 64],
  'body.4': [-0.1875, 63.125],
  'body.6': [-1.4375, 53.3125],
  'body.8': [-1.3125, 67.5625],
  'body.10': [-2.875, 69.1875],
  'body.12': [-2.0625, 77.8125],
  'body.14': [-19.4375, 85.1875],
  'body.16': [-6.125, 91.25],
  'body.18': [-4.875, 81],
  'body.20': [-2.6875, 66.625],
  'body.22': [-5, 90.5625],
  'body.24': [-16.375, 100.9375],
  'body.26': [-5.0625, 91.875],
  'body.28': [-8.75, 52],
  'body.30': [-6.875, 45.875],
  'body.32': [-5.375, 61.0625],
  'body.34': [-2.0625, 65.3125],
  'body.36': [-7.6875, 60],
  'body.38': [-4.9375, 58.8125],
  'body.40': [-14.375, 47.0625],
  'body.42': [-6.4375, 103.1875],
  'body.44': [-4.3125, 74],
  'body.46': [-8.625, 66.125],
  'body.48': [-4.375, 38.4375],
  'body.50': [-0.875, 47.625],
  'body.52': [-7.8125, 50.5625],
  'body.54': [-2.1875, 36.6875],
  'body.56': [-6.0625, 33.125],
  'body.58': [-0.8125, 45.6875],
  'body.60': [-0.9375, 31.5],
  'body.62': [-0.5625, 23.125],
  'body.64': [-0.0625, 24.5625],
};

/** One DynamicQuantizeLinear + ConvInteger block of the int8 file: a convolution with bias. */
interface ConvBlock {
  /** `body.N`, the PyTorch layer name. */
  name: string;
  input: string;
  output: string;
  weight: Tensor;
  weightScale: number;
  bias: Tensor;
  /** The ConvInteger node's attributes (kernel, pads, strides), reused as they are. */
  attributes: onnx.IAttributeProto[];
  /** Every node of the block, all replaced. */
  nodes: Set<Node>;
}

interface UpscalerGraph {
  model: onnx.ModelProto;
  graph: onnx.GraphProto;
  nodes: Node[];
  blocks: ConvBlock[];
}

function parse(int8Model: Uint8Array): UpscalerGraph {
  const model = onnx.ModelProto.decode(int8Model);
  const graph = model.graph as onnx.GraphProto;
  const nodes = graph.node as Node[];
  const tensor = new Map((graph.initializer as Tensor[]).map((t) => [t.name, t]));
  const producer = new Map(nodes.flatMap((n) => n.output.map((output) => [output, n] as const)));
  const consumer = new Map(nodes.flatMap((n) => n.input.map((input) => [input, n] as const)));
  const follow = (from: Node, opType: string) => {
    const next = consumer.get(from.output![0]!);
    if (next?.opType !== opType) throw new Error(`upscaler: ${from.name} is not followed by ${opType}`);
    return next;
  };
  const blocks = nodes
    .filter((n) => n.opType === 'ConvInteger')
    .map((conv): ConvBlock => {
      // x → DynamicQuantizeLinear → ConvInteger → Cast → Mul(x scale × w scale) → Add(Reshape(bias))
      const quantize = producer.get(conv.input[0]!)!;
      const cast = follow(conv, 'Cast');
      const rescale = follow(cast, 'Mul');
      const addBias = follow(rescale, 'Add');
      const scales = producer.get(rescale.input[1]!)!;
      const biasShape = producer.get(addBias.input[1]!)!;
      const weightName = conv.input[1]!;
      const base = weightName.replace(/\.weight_quantized$/, '');
      return {
        name: base,
        input: quantize.input[0]!,
        output: addBias.output[0]!,
        weight: tensor.get(weightName)!,
        weightScale: floatValues(tensor.get(`${base}.weight_scale`)!)[0]!,
        bias: tensor.get(biasShape.input[0]!)!,
        attributes: conv.attribute,
        nodes: new Set([quantize, conv, cast, rescale, addBias, scales, biasShape]),
      };
    });
  for (const block of blocks) {
    const zeroPoint = tensor.get(`${block.name}.weight_zero_point`)!;
    if (tensorBytes(zeroPoint).some((byte) => byte !== 0)) {
      throw new Error(`upscaler: ${block.name} weights are not symmetric`);
    }
  }
  return { model, graph, nodes, blocks };
}

/**
 * Rebuilds the model with the blocks replaced by `emit`'s nodes; the initializers the blocks used go (biases are
 * re-emitted by `emit` as needed). `outputs` names extra graph outputs (float tensors).
 */
function rewrite(
  { model, graph, nodes: originals, blocks }: UpscalerGraph,
  emit: (block: ConvBlock) => { nodes: Node[]; initializers: Tensor[] },
  renamed: Map<string, string> = new Map(),
  outputs: string[] = [],
): Uint8Array {
  const replaced = new Map<Node, ConvBlock>();
  for (const block of blocks) for (const member of block.nodes) replaced.set(member, block);
  const used = new Set(blocks.flatMap((block) => [...block.nodes].flatMap((member) => member.input)));
  const nodes: Node[] = [];
  const initializers = (graph.initializer as Tensor[]).filter((t) => !used.has(t.name));
  for (const original of originals) {
    const block = replaced.get(original);
    if (block) {
      if (original.opType !== 'ConvInteger') continue;
      const emitted = emit(block);
      nodes.push(...emitted.nodes);
      initializers.push(...emitted.initializers);
      continue;
    }
    original.input = original.input.map((input) => renamed.get(input) ?? input);
    nodes.push(original);
  }
  graph.initializer = initializers;
  addFloatOutputs(graph, outputs);
  // A node whose outputs nothing reads goes (a block's dequantized output when its PRelu reads the uint8 one):
  // onnxruntime would still run it.
  const read = new Set([...nodes.flatMap((n) => n.input), ...graph.output.map((output) => output.name)]);
  graph.node = nodes.filter((n) => n.output.some((output) => read.has(output)));
  return onnx.ModelProto.encode(model).finish();
}

/**
 * The float32 model: every block a Conv with the dequantized weights. Bit-identical in output to the
 * `-int8-dequant-fp32.onnx` file (checked), so it is the reference the quantized model is measured against.
 * `withConvOutputs` adds every conv's output as a graph output, for calibration.
 */
export function float32Upscaler(int8Model: Uint8Array, withConvOutputs = false): Uint8Array {
  const graph = parse(int8Model);
  return rewrite(
    graph,
    (block) => {
      const weight = Float32Array.from(int8Values(block.weight), (value) => value * block.weightScale);
      const w = tensorLike(block.weight, `${block.name}.weight`, DataType.FLOAT, weight);
      return {
        nodes: [node('Conv', block.name, [block.input, w.name, block.bias.name], [block.output], block.attributes)],
        initializers: [w, block.bias],
      };
    },
    new Map(),
    withConvOutputs ? graph.blocks.map((block) => block.output) : [],
  );
}

/** Names of the conv outputs, in graph order (the keys of the ranges table). */
export function upscalerConvOutputs(int8Model: Uint8Array): Array<{ name: string; output: string }> {
  return parse(int8Model).blocks.map(({ name, output }) => ({ name, output }));
}

/** QuantizeLinear / DequantizeLinear onto the uint8 grid whose initializers are `${grid}.scale` and `${grid}.zero`. */
const quantize = (name: string, input: string, output: string, grid: string) =>
  node('QuantizeLinear', name, [input, `${grid}.scale`, `${grid}.zero`], [output]);
const dequantize = (name: string, input: string, output: string, grid: string) =>
  node('DequantizeLinear', name, [input, `${grid}.scale`, `${grid}.zero`], [output]);

/** Each PRelu of the graph with the conv block it follows and its slopes less one (a − 1, per channel). */
function preluBends({
  graph,
  nodes,
  blocks,
}: UpscalerGraph): Array<{ prelu: Node; block: ConvBlock; bends: Float32Array }> {
  const tensor = new Map((graph.initializer as Tensor[]).map((t) => [t.name, t]));
  const blockOf = new Map(blocks.map((block) => [block.output, block]));
  return nodes
    .filter((n) => n.opType === 'PRelu')
    .map((prelu) => {
      const slope = tensor.get(prelu.input[1]!);
      const block = blockOf.get(prelu.input[0]!);
      if (!slope || !block) throw new Error(`upscaler: ${prelu.name} does not follow a conv with a constant slope`);
      return { prelu, block, bends: floatValues(slope).map((a) => a - 1) };
    });
}

/** The conv blocks followed by a PRelu, with a − 1 per channel: what the calibration measures the bends of. */
export function upscalerBends(int8Model: Uint8Array): Array<{ name: string; output: string; bends: Float32Array }> {
  return preluBends(parse(int8Model)).map(({ block, bends }) => ({ name: block.name, output: block.output, bends }));
}

/**
 * Each PRelu(x, a) as x + (a − 1)·min(x, 0) on uint8 grids, which onnxruntime runs as a uint8 Clip, a QLinearMul
 * and a QLinearAdd (vectorised byte kernels): min(x, 0) is the conv's uint8 output clipped at its grid's zero, the
 * per-channel a − 1 a uint8 constant, the bend lands on its calibrated grid (UPSCALER_BEND_RANGES) and the sum on
 * the conv's grid, as the PRelu's output did. onnxruntime's float PRelu kernel took ~22 ms per 64×256² activation
 * here, 62 % of a tile's run; the slopes are per channel and on both sides of 1, so no single Max, Min or LeakyRelu
 * would do.
 */
function preluOnGrid(
  upscaler: UpscalerGraph,
  gridOf: ReadonlyMap<string, Grid>,
  bendRanges: Readonly<Record<string, readonly [number, number]>>,
): void {
  const { graph, nodes } = upscaler;
  const replaced = new Map(preluBends(upscaler).map((found) => [found.prelu, found]));
  const expanded: Node[] = [];
  graph.initializer.push(scalar('prelu.low', DataType.UINT8, Uint8Array.of(0)));
  for (const original of nodes) {
    const found = replaced.get(original);
    if (!found) {
      expanded.push(original);
      continue;
    }
    const { block, bends } = found;
    const n = original.name;
    const b = block.name;
    const slopeGrid = uint8Grid(Math.min(...bends), Math.max(...bends));
    const bendRange = bendRanges[b];
    if (!bendRange) throw new Error(`upscaler: no calibrated bend range for ${b}`);
    const bendGrid = uint8Grid(bendRange[0], bendRange[1]);
    const slopeBytes = Uint8Array.from(bends, (c) =>
      Math.min(255, Math.max(0, Math.round(c / slopeGrid.scale) + slopeGrid.zeroPoint)),
    );
    graph.initializer.push(
      tensorLike({ dims: [bends.length, 1, 1] }, `${n}.slope.u8`, DataType.UINT8, slopeBytes),
      ...gridTensors(`${n}.slope`, slopeGrid),
      ...gridTensors(`${n}.bendgrid`, bendGrid),
    );
    expanded.push(
      node('Clip', `${n}.negative`, [`${b}.y.u8`, 'prelu.low', `${b}.y.zero`], [`${n}.neg.u8`]),
      dequantize(`${n}.neg.dq`, `${n}.neg.u8`, `${n}.neg.f`, `${b}.y`),
      dequantize(`${n}.slope.dq`, `${n}.slope.u8`, `${n}.slope.f`, `${n}.slope`),
      node('Mul', `${n}.mul`, [`${n}.neg.f`, `${n}.slope.f`], [`${n}.bend.f`]),
      quantize(`${n}.bend.q`, `${n}.bend.f`, `${n}.bend.u8`, `${n}.bendgrid`),
      dequantize(`${n}.bend.dq`, `${n}.bend.u8`, `${n}.bend.dqf`, `${n}.bendgrid`),
      dequantize(`${n}.x.dq`, `${b}.y.u8`, `${n}.x.f`, `${b}.y`),
      node('Add', `${n}.add`, [`${n}.x.f`, `${n}.bend.dqf`], original.output),
    );
  }
  nodes.splice(0, nodes.length, ...expanded);
  const slopes = new Set([...replaced.keys()].map((prelu) => prelu.input[1]));
  graph.initializer = (graph.initializer as Tensor[]).filter((t) => !slopes.has(t.name));
}

/** The model's input is x/255: a grid of step 1/255 holds it exactly. */
const INPUT_GRID = { scale: Math.fround(1 / 255), zeroPoint: 0 };

/** The statically quantized QDQ model (see the top of this file). */
export function quantizedUpscaler(
  int8Model: Uint8Array,
  ranges: Readonly<Record<string, readonly [number, number]>> = UPSCALER_ACTIVATION_RANGES,
  bendRanges: Readonly<Record<string, readonly [number, number]>> = UPSCALER_BEND_RANGES,
): Uint8Array {
  const graph = parse(int8Model);
  // A conv's input grid is that of the conv before it (the PRelu between keeps the grid); the first reads the image.
  const gridOf = new Map<string, { scale: number; zeroPoint: number }>();
  const renamed = new Map<string, string>();
  for (const block of graph.blocks) {
    const range = ranges[block.name];
    if (!range) throw new Error(`upscaler: no calibrated range for ${block.name}`);
    gridOf.set(block.name, uint8Grid(range[0], range[1]));
    // What read the block's float output (PRelu, DepthToSpace) reads its dequantized uint8 output instead.
    renamed.set(block.output, `${block.name}.output`);
  }
  preluOnGrid(graph, gridOf, bendRanges);
  return rewrite(
    graph,
    (block) => {
      const index = graph.blocks.indexOf(block);
      const inputGrid = index === 0 ? INPUT_GRID : gridOf.get(graph.blocks[index - 1]!.name)!;
      const outputGrid = gridOf.get(block.name)!;
      const n = block.name;
      const biasScale = Math.fround(inputGrid.scale * block.weightScale);
      const bias = Int32Array.from(floatValues(block.bias), (value) => Math.round(value / biasScale));
      const initializers: Tensor[] = [
        tensorLike(block.weight, `${n}.w`, DataType.INT8, int8Values(block.weight)),
        scalar(`${n}.w.scale`, DataType.FLOAT, Float32Array.of(block.weightScale)),
        scalar(`${n}.w.zero`, DataType.INT8, Int8Array.of(0)),
        tensorLike(block.bias, `${n}.b`, DataType.INT32, bias),
        scalar(`${n}.b.scale`, DataType.FLOAT, Float32Array.of(biasScale)),
        scalar(`${n}.b.zero`, DataType.INT32, Int32Array.of(0)),
        ...gridTensors(`${n}.x`, inputGrid),
        ...gridTensors(`${n}.y`, outputGrid),
      ];
      const convOutput = `${n}.conv`;
      return {
        nodes: [
          quantize(`${n}.x.q`, block.input, `${n}.x.u8`, `${n}.x`),
          dequantize(`${n}.x.dq`, `${n}.x.u8`, `${n}.x.f`, `${n}.x`),
          dequantize(`${n}.w.dq`, `${n}.w`, `${n}.w.f`, `${n}.w`),
          dequantize(`${n}.b.dq`, `${n}.b`, `${n}.b.f`, `${n}.b`),
          node('Conv', n, [`${n}.x.f`, `${n}.w.f`, `${n}.b.f`], [convOutput], block.attributes),
          quantize(`${n}.y.q`, convOutput, `${n}.y.u8`, `${n}.y`),
          dequantize(`${n}.y.dq`, `${n}.y.u8`, `${n}.output`, `${n}.y`),
        ],
        initializers,
      };
    },
    renamed,
  );
}

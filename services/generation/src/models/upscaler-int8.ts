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
 * calibrated range, and the PRelu after it writes back onto the same grid (positive values pass exactly).
 * The rewrite is pure arithmetic on the file's bytes and the table below: the same input always gives the same
 * output bytes, checked against the manifest's sha256.
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
  graph.node = nodes;
  graph.initializer = initializers;
  addFloatOutputs(graph, outputs);
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

/**
 * Each PRelu(x, a) as x + (a − 1)·min(x, 0): the same values within float rounding, in three of onnxruntime's
 * vectorised element-wise kernels. Its PRelu kernel took ~22 ms per 64×256² activation here, 62 % of a tile's run
 * (the convolutions 25 %); the three take ~12 ms. The slopes are per channel and on both sides of 1, so a single
 * Max or Min of x and a·x would not do.
 */
function preluAsMinMulAdd({ graph, nodes }: UpscalerGraph): void {
  const tensor = new Map((graph.initializer as Tensor[]).map((t) => [t.name, t]));
  const expanded: Node[] = [];
  const slopes = new Set<string>();
  for (const original of nodes) {
    if (original.opType !== 'PRelu') {
      expanded.push(original);
      continue;
    }
    const [x, slopeName] = original.input as [string, string];
    const slope = tensor.get(slopeName);
    if (!slope) throw new Error(`upscaler: ${original.name} has no constant slope`);
    slopes.add(slopeName);
    const n = original.name;
    graph.initializer.push(
      tensorLike(
        slope,
        `${n}.slope-1`,
        DataType.FLOAT,
        floatValues(slope).map((a) => a - 1),
      ),
      scalar(`${n}.zero`, DataType.FLOAT, Float32Array.of(0)),
    );
    expanded.push(
      node('Min', `${n}.min`, [x, `${n}.zero`], [`${n}.negative`]),
      node('Mul', `${n}.mul`, [`${n}.negative`, `${n}.slope-1`], [`${n}.bend`]),
      node('Add', `${n}.add`, [x, `${n}.bend`], original.output),
    );
  }
  nodes.splice(0, nodes.length, ...expanded);
  graph.initializer = (graph.initializer as Tensor[]).filter((t) => !slopes.has(t.name));
}

/** The model's input is x/255: a grid of step 1/255 holds it exactly. */
const INPUT_GRID = { scale: Math.fround(1 / 255), zeroPoint: 0 };

/** The statically quantized QDQ model (see the top of this file). */
export function quantizedUpscaler(
  int8Model: Uint8Array,
  ranges: Readonly<Record<string, readonly [number, number]>> = UPSCALER_ACTIVATION_RANGES,
): Uint8Array {
  const graph = parse(int8Model);
  preluAsMinMulAdd(graph);
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
      const quantize = (name: string, input: string, output: string, grid: string) =>
        node('QuantizeLinear', name, [input, `${grid}.scale`, `${grid}.zero`], [output]);
      const dequantize = (name: string, input: string, output: string, grid: string) =>
        node('DequantizeLinear', name, [input, `${grid}.scale`, `${grid}.zero`], [output]);
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

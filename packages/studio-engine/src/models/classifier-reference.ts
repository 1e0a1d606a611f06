import { onnx } from 'onnx-proto';
import { DataType, floatValues, int8Values, node, tensorBytes, tensorLike, type Node, type Tensor } from './onnx-graph';

/*
 * The reference the int8 kernel paths are tested against: the classifier file (MobileNetV2, QLinear* operators) with
 * every integer operator computed in float32 instead. Each QLinearConv, QLinearMatMul, QLinearAdd and
 * QLinearGlobalAveragePool becomes DequantizeLinear → the float operator (weights and biases dequantized into float
 * initializers) → QuantizeLinear onto the same output grid. Activations stay on the file's uint8 grids, so this is
 * what the integer kernels are meant to compute, to float rounding, with no integer kernel involved: a path that
 * saturates or overflows shows against it. Open it with onnxruntime's QDQ fusion off (`basic` optimisation), which
 * would otherwise turn the DQ → op → Q chains back into integer operators.
 */

const values = (tensor: Tensor): Float32Array | Int32Array | Int8Array | Uint8Array => {
  if (tensor.dataType === DataType.FLOAT) return floatValues(tensor);
  if (tensor.dataType === DataType.INT8) return int8Values(tensor);
  if (tensor.dataType === DataType.UINT8) return new Uint8Array(tensorBytes(tensor));
  if (tensor.dataType === DataType.INT32) return new Int32Array(new Uint8Array(tensorBytes(tensor)).buffer);
  throw new Error(`classifier reference: unexpected tensor type ${tensor.dataType} (${tensor.name})`);
};

/** A per-tensor or per-channel parameter's value for channel `c`. */
const at = (parameter: ArrayLike<number>, c: number) => parameter[parameter.length === 1 ? 0 : c]!;

export function float32Classifier(int8Model: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(int8Model);
  const graph = model.graph as onnx.GraphProto;
  const initializers = new Map((graph.initializer as Tensor[]).map((tensor) => [tensor.name, tensor]));
  const read = (name: string) => {
    const tensor = initializers.get(name);
    if (!tensor) throw new Error(`classifier reference: ${name} is not an initializer`);
    return values(tensor);
  };
  const added: Tensor[] = [];
  const nodes: Node[] = [];
  // Once per activation, at its first reader (nodes come in graph order), however many operators read it.
  const dequantized = new Set<string>();
  const dequantize = (n: Node, [x, scale, zero]: string[]) => {
    const output = `${x}.ref.f`;
    if (!dequantized.has(output)) nodes.push(node('DequantizeLinear', `${x}.ref.dq`, [x!, scale!, zero!], [output]));
    dequantized.add(output);
    return output;
  };
  const quantize = (n: Node, input: string, [scale, zero]: string[]) =>
    nodes.push(node('QuantizeLinear', `${input}.q`, [input, scale!, zero!], [n.output[0]!]));
  /** (w − zero) × scale per output channel; `channelOf` maps an element index to its channel. */
  const floatWeights = (name: string, scale: string, zero: string, channelOf: (index: number) => number) => {
    const weights = read(name);
    const scales = read(scale);
    const zeros = read(zero);
    const result = new Float32Array(weights.length);
    for (let k = 0; k < weights.length; k += 1) {
      const c = channelOf(k);
      result[k] = (weights[k]! - at(zeros, c)) * at(scales, c);
    }
    added.push(tensorLike(initializers.get(name)!, `${name}.ref.f`, DataType.FLOAT, result));
    return `${name}.ref.f`;
  };

  for (const n of graph.node as Node[]) {
    const input = n.input;
    if (n.opType === 'QLinearConv') {
      const dims = initializers.get(input[3]!)!.dims!.map(Number);
      const perChannel = dims.slice(1).reduce((product, dim) => product * dim, 1);
      const x = dequantize(n, input.slice(0, 3));
      const weight = floatWeights(input[3]!, input[4]!, input[5]!, (k) => Math.floor(k / perChannel));
      const convInputs = [x, weight];
      if (input[8]) {
        const bias = read(input[8]);
        const inputScale = read(input[1]!)[0]!;
        const weightScales = read(input[4]!);
        const floatBias = Float32Array.from(bias, (value, c) => value * inputScale * at(weightScales, c));
        added.push(tensorLike(initializers.get(input[8])!, `${input[8]}.ref.f`, DataType.FLOAT, floatBias));
        convInputs.push(`${input[8]}.ref.f`);
      }
      nodes.push(node('Conv', `${n.name}.ref`, convInputs, [`${n.output[0]}.ref.y`], n.attribute));
      quantize(n, `${n.output[0]}.ref.y`, input.slice(6, 8));
    } else if (n.opType === 'QLinearMatMul') {
      const columns = initializers.get(input[3]!)!.dims!.map(Number).at(-1)!;
      const a = dequantize(n, input.slice(0, 3));
      const b = floatWeights(input[3]!, input[4]!, input[5]!, (k) => k % columns);
      nodes.push(node('MatMul', `${n.name}.ref`, [a, b], [`${n.output[0]}.ref.y`]));
      quantize(n, `${n.output[0]}.ref.y`, input.slice(6, 8));
    } else if (n.opType === 'QLinearAdd') {
      const a = dequantize(n, input.slice(0, 3));
      const b = dequantize(n, input.slice(3, 6));
      nodes.push(node('Add', `${n.name}.ref`, [a, b], [`${n.output[0]}.ref.y`]));
      quantize(n, `${n.output[0]}.ref.y`, input.slice(6, 8));
    } else if (n.opType === 'QLinearGlobalAveragePool') {
      if (n.attribute.some((attribute) => attribute.name === 'channels_last' && Number(attribute.i) !== 0)) {
        throw new Error('classifier reference: channels-last pooling is not supported');
      }
      const x = dequantize(n, input.slice(0, 3));
      nodes.push(node('GlobalAveragePool', `${n.name}.ref`, [x], [`${n.output[0]}.ref.y`]));
      quantize(n, `${n.output[0]}.ref.y`, input.slice(3, 5));
    } else if (n.opType.startsWith('QLinear')) {
      throw new Error(`classifier reference: ${n.opType} is not supported`);
    } else {
      nodes.push(n);
    }
  }
  graph.node = nodes;
  graph.initializer = [...(graph.initializer as Tensor[]), ...added];
  return onnx.ModelProto.encode(model).finish();
}

import { onnx } from 'onnx-proto';

/* Small helpers for rewriting decoded ONNX graphs (onnx-proto) into statically quantized QDQ models. */

// Decoded messages have every repeated field as an array (empty when absent), unlike the I* interfaces.
export type Node = onnx.NodeProto;
export type Tensor = onnx.TensorProto;

export const DataType = onnx.TensorProto.DataType;

/** A tensor's elements as little-endian bytes: raw_data, or the typed fields ONNX writers also use. */
export function tensorBytes(tensor: Tensor): Uint8Array {
  if (tensor.rawData && tensor.rawData.length > 0) return tensor.rawData;
  if (tensor.dataType === DataType.FLOAT) return new Uint8Array(Float32Array.from(tensor.floatData ?? []).buffer);
  // int32_data holds every integer type narrower than 64 bits (float16 too, as its bits), one value per element.
  const values = tensor.int32Data ?? [];
  if (tensor.dataType === DataType.INT8) return new Uint8Array(Int8Array.from(values).buffer);
  if (tensor.dataType === DataType.UINT8) return Uint8Array.from(values);
  if (tensor.dataType === DataType.FLOAT16) return new Uint8Array(Uint16Array.from(values).buffer);
  return new Uint8Array(Int32Array.from(values).buffer);
}

/** A copy of the element bytes, aligned for a typed-array view (raw_data may start at any offset). */
const alignedBytes = (tensor: Tensor) => new Uint8Array(tensorBytes(tensor));

export const int8Values = (tensor: Tensor) => new Int8Array(alignedBytes(tensor).buffer);

/** IEEE 754 half → single precision (subnormals, infinities and NaN included). */
function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

let halves: Float32Array | undefined;

/** A float or float16 tensor's values as float32. */
export function floatValues(tensor: Tensor): Float32Array {
  const bytes = alignedBytes(tensor);
  if (tensor.dataType !== DataType.FLOAT16) return new Float32Array(bytes.buffer);
  // Every float16 value looked up (256 KB, made once): a million weights widen in a few ms.
  halves ??= Float32Array.from({ length: 0x10000 }, (_, bits) => halfToFloat(bits));
  const bits = new Uint16Array(bytes.buffer);
  const values = new Float32Array(bits.length);
  for (let k = 0; k < bits.length; k += 1) values[k] = halves[bits[k]!]!;
  return values;
}

type Values = Float32Array | Uint8Array | Int8Array | Int32Array;

/** A tensor of the same shape as `like`, holding `values` as raw data. */
export const tensorLike = (like: onnx.ITensorProto, name: string, dataType: number, values: Values) =>
  onnx.TensorProto.create({
    name,
    dataType,
    dims: like.dims,
    rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  });

export const scalar = (name: string, dataType: number, values: Values) =>
  tensorLike({ dims: [] }, name, dataType, values);

export const node = (
  opType: string,
  name: string,
  input: string[],
  output: string[],
  attribute: onnx.IAttributeProto[] = [],
): Node => onnx.NodeProto.create({ opType, name, input, output, attribute });

export interface Grid {
  scale: number;
  zeroPoint: number;
}

/** uint8 grid covering [min, max] with zero on a step (so zero padding and a Relu's or PRelu's kink are exact). */
export function uint8Grid(min: number, max: number): Grid {
  const low = Math.min(min, 0);
  const high = Math.max(max, 0);
  const scale = Math.fround((high - low) / 255);
  return { scale, zeroPoint: Math.min(255, Math.max(0, Math.round(-low / scale))) };
}

/** The `${prefix}.scale` and `${prefix}.zero` initializers of a uint8 grid. */
export function gridTensors(prefix: string, grid: Grid): Tensor[] {
  return [
    scalar(`${prefix}.scale`, DataType.FLOAT, Float32Array.of(grid.scale)),
    scalar(`${prefix}.zero`, DataType.UINT8, Uint8Array.of(grid.zeroPoint)),
  ];
}

/** Adds float tensors (of unknown shape) as graph outputs, for calibration. */
export function addFloatOutputs(graph: onnx.GraphProto, names: readonly string[]): void {
  for (const name of names) {
    graph.output.push(onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: DataType.FLOAT } } }));
  }
}

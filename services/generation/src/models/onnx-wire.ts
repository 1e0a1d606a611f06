/**
 * Just enough of the protobuf wire format to rewrite an ONNX graph: a message is read as a list of fields whose
 * payloads stay raw bytes, so everything this code does not touch (attributes, opsets, shapes) is written back
 * byte for byte. Field numbers are those of onnx.proto.
 */

export interface WireField {
  no: number;
  /** 0 varint, 1 fixed 64-bit, 2 length-delimited, 5 fixed 32-bit. */
  wire: number;
  /** Varints as bigint (int64 fields); the other wire types as their raw bytes. */
  value: bigint | Uint8Array;
}

export const ONNX = {
  model: { graph: 7 },
  graph: { node: 1, initializer: 5, output: 12 },
  node: { input: 1, output: 2, name: 3, opType: 4, attribute: 5 },
  tensor: { dims: 1, dataType: 2, floatData: 4, int32Data: 5, name: 8, rawData: 9 },
  valueInfo: { name: 1, type: 2 },
  dataType: { float: 1, uint8: 2, int8: 3, int32: 6 },
} as const;

function readVarint(bytes: Uint8Array, at: number): [bigint, number] {
  // Tags, lengths and dims fit in 4 bytes: plain numbers there; bigint only for longer (negative int64) values.
  let small = 0;
  for (let i = 0; i < 4; i += 1) {
    const byte = bytes[at + i]!;
    small += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return [BigInt(small), at + i + 1];
  }
  let result = BigInt(small);
  let shift = 28n;
  for (at += 4; ; shift += 7n) {
    const byte = bytes[at]!;
    at += 1;
    result |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return [result, at];
  }
}

export function decodeMessage(bytes: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  while (at < bytes.length) {
    const [tag, next] = readVarint(bytes, at);
    at = next;
    const no = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) {
      const [value, after] = readVarint(bytes, at);
      fields.push({ no, wire, value });
      at = after;
    } else if (wire === 2) {
      const [length, start] = readVarint(bytes, at);
      at = start + Number(length);
      fields.push({ no, wire, value: bytes.subarray(start, at) });
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      fields.push({ no, wire, value: bytes.subarray(at, at + size) });
      at += size;
    } else {
      throw new Error(`unsupported protobuf wire type ${wire}`);
    }
  }
  return fields;
}

function varint(value: bigint): number[] {
  let rest = BigInt.asUintN(64, value);
  const out: number[] = [];
  while (rest >= 0x80n) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

export function encodeMessage(fields: readonly WireField[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const { no, wire, value } of fields) {
    parts.push(Uint8Array.from(varint(BigInt((no << 3) | wire))));
    if (typeof value === 'bigint') parts.push(Uint8Array.from(varint(value)));
    else {
      if (wire === 2) parts.push(Uint8Array.from(varint(BigInt(value.length))));
      parts.push(value);
    }
  }
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const text = new TextEncoder();
const untext = new TextDecoder();

export const field = {
  string: (no: number, value: string): WireField => ({ no, wire: 2, value: text.encode(value) }),
  int: (no: number, value: number | bigint): WireField => ({ no, wire: 0, value: BigInt(value) }),
  bytes: (no: number, value: Uint8Array): WireField => ({ no, wire: 2, value }),
};

/** The payloads of one field number (repeated fields in order). */
export function payloads(fields: readonly WireField[], no: number): Uint8Array[] {
  return fields.filter((f) => f.no === no && f.wire === 2).map((f) => f.value as Uint8Array);
}

export function strings(fields: readonly WireField[], no: number): string[] {
  return payloads(fields, no).map((bytes) => untext.decode(bytes));
}

/** An int field, repeated or packed (ONNX writers use both for dims and int32_data). */
export function ints(fields: readonly WireField[], no: number): bigint[] {
  const values: bigint[] = [];
  for (const f of fields) {
    if (f.no !== no) continue;
    if (typeof f.value === 'bigint') values.push(f.value);
    else for (let at = 0; at < f.value.length;) [values[values.length], at] = readVarint(f.value, at);
  }
  return values;
}

export interface Tensor {
  name: string;
  dataType: number;
  dims: number[];
  /** Little-endian element bytes (raw_data, or float_data / int32_data widened to it). */
  data: Uint8Array;
}

export function decodeTensor(bytes: Uint8Array): Tensor {
  const fields = decodeMessage(bytes);
  const t = ONNX.tensor;
  const dataType = Number(ints(fields, t.dataType)[0] ?? 0n);
  let data = payloads(fields, t.rawData)[0];
  if (!data && dataType === ONNX.dataType.float) {
    // float_data, packed or not: either way its payloads are the little-endian floats.
    const chunks = fields.filter((f) => f.no === t.floatData).map((f) => f.value as Uint8Array);
    if (chunks.length > 0) data = Uint8Array.from(chunks.flatMap((chunk) => [...chunk]));
  }
  if (!data) {
    // int32_data holds every integer type narrower than 64 bits, one value per element.
    const values = ints(fields, t.int32Data).map((v) => Number(BigInt.asIntN(32, v)));
    data = new Uint8Array(Int32Array.from(values).buffer);
    if (dataType === ONNX.dataType.int8) data = new Uint8Array(Int8Array.from(values).buffer);
    if (dataType === ONNX.dataType.uint8) data = Uint8Array.from(values);
  }
  return { name: strings(fields, t.name)[0] ?? '', dataType, dims: ints(fields, t.dims).map(Number), data };
}

export function encodeTensor({ name, dataType, dims, data }: Tensor): Uint8Array {
  const t = ONNX.tensor;
  return encodeMessage([
    ...dims.map((dim) => field.int(t.dims, dim)),
    field.int(t.dataType, dataType),
    field.string(t.name, name),
    field.bytes(t.rawData, data),
  ]);
}

export interface GraphNode {
  opType: string;
  name: string;
  inputs: string[];
  outputs: string[];
  /** The node's other fields (attributes, domain), untouched. */
  rest: WireField[];
}

export function decodeNode(bytes: Uint8Array): GraphNode {
  const fields = decodeMessage(bytes);
  const n = ONNX.node;
  const own = new Set<number>([n.input, n.output, n.name, n.opType]);
  return {
    opType: strings(fields, n.opType)[0] ?? '',
    name: strings(fields, n.name)[0] ?? '',
    inputs: strings(fields, n.input),
    outputs: strings(fields, n.output),
    rest: fields.filter((f) => !own.has(f.no)),
  };
}

export function encodeNode({ opType, name, inputs, outputs, rest }: GraphNode): Uint8Array {
  const n = ONNX.node;
  return encodeMessage([
    ...inputs.map((input) => field.string(n.input, input)),
    ...outputs.map((output) => field.string(n.output, output)),
    field.string(n.name, name),
    field.string(n.opType, opType),
    ...rest,
  ]);
}

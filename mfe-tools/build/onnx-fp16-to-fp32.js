'use strict';
// Turns an ONNX model with float16 weights (float32 inputs and outputs, Cast nodes around every fp16 region) into
// a plain float32 model. onnxruntime-web runs fp16 weights through casts on every run and pays seconds on the
// first one; float32 weights load and run at once (issue 12 measured 3.5 s → 0.8 s for u2netp).

const { onnx } = require('onnx-proto');

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const FLOAT16 = onnx.TensorProto.DataType.FLOAT16;

/** IEEE 754 half → single precision (subnormals, infinities and NaN included). */
function halfToFloat(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** Rewrites one float16 tensor in place as float32 (raw_data or the int32_data fallback of the format). */
function widenTensor(tensor) {
  if (tensor.dataType !== FLOAT16) return false;
  let halves;
  if (tensor.rawData && tensor.rawData.length > 0) {
    const raw = tensor.rawData;
    halves = new Uint16Array(raw.length / 2);
    for (let i = 0; i < halves.length; i += 1) halves[i] = raw[2 * i] | (raw[2 * i + 1] << 8);
  } else {
    halves = Uint16Array.from(tensor.int32Data);
  }
  const floats = new Float32Array(halves.length);
  for (let i = 0; i < halves.length; i += 1) floats[i] = halfToFloat(halves[i]);
  tensor.dataType = FLOAT;
  tensor.rawData = new Uint8Array(floats.buffer);
  tensor.int32Data = [];
  return true;
}

function widenValueInfo(info) {
  const tensorType = info.type && info.type.tensorType;
  if (tensorType && tensorType.elemType === FLOAT16) tensorType.elemType = FLOAT;
}

/**
 * @param {Uint8Array} bytes an ONNX model
 * @returns {{ bytes: Uint8Array, widenedTensors: number, removedCasts: number }}
 */
function convertFloat16ModelToFloat32(bytes) {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph;
  let widenedTensors = 0;
  for (const tensor of graph.initializer) if (widenTensor(tensor)) widenedTensors += 1;
  for (const info of [...graph.input, ...graph.output, ...graph.valueInfo]) widenValueInfo(info);

  // Float element types of every value whose type is known after widening: a Cast to float of one of them is a
  // no-op and goes, its consumers reading the Cast's input directly.
  const floatValues = new Set(
    [...graph.input, ...graph.valueInfo]
      .filter((info) => info.type && info.type.tensorType && info.type.tensorType.elemType === FLOAT)
      .map((info) => info.name),
  );
  for (const tensor of graph.initializer) if (tensor.dataType === FLOAT) floatValues.add(tensor.name);

  const renamed = new Map();
  const graphOutputs = new Set(graph.output.map((output) => output.name));
  const kept = [];
  let removedCasts = 0;
  for (const node of graph.node) {
    for (const attribute of node.attribute) {
      if (attribute.t && widenTensor(attribute.t)) widenedTensors += 1;
      for (const tensor of attribute.tensors ?? []) if (widenTensor(tensor)) widenedTensors += 1;
    }
    node.input = node.input.map((name) => renamed.get(name) ?? name);
    if (node.opType === 'Constant') {
      const value = node.attribute.find((attribute) => attribute.name === 'value');
      if (value && value.t && value.t.dataType === FLOAT) floatValues.add(node.output[0]);
    }
    if (node.opType === 'Cast') {
      const to = node.attribute.find((attribute) => attribute.name === 'to');
      if (to && Number(to.i) === FLOAT16) to.i = FLOAT;
      const castsToFloat = to && Number(to.i) === FLOAT;
      if (castsToFloat && floatValues.has(node.input[0]) && !graphOutputs.has(node.output[0])) {
        renamed.set(node.output[0], node.input[0]);
        removedCasts += 1;
        continue;
      }
      if (castsToFloat) floatValues.add(node.output[0]);
    }
    kept.push(node);
  }
  graph.node = kept;
  // A graph output fed by a removed Cast keeps its name: it is produced by the kept Cast above (never removed).
  graph.valueInfo = graph.valueInfo.filter((info) => !renamed.has(info.name));
  return { bytes: onnx.ModelProto.encode(model).finish(), widenedTensors, removedCasts };
}

module.exports = { convertFloat16ModelToFloat32, halfToFloat };

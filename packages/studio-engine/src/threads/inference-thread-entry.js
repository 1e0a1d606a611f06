'use strict';
// Runs onnxruntime-node in a worker thread: sessions are created once (per model) and inference never blocks the
// service's event loop, so HTTP answers and image composition go on while a model runs.
// Plain JavaScript so the same file runs from src (tests) and dist (the built package).
const { parentPort } = require('node:worker_threads');
const ort = require('onnxruntime-node');

const sessions = new Map();

function createSession(key, model, threads, floatReference) {
  const session = ort.InferenceSession.create(model, {
    // A test's float32 reference: no QDQ fusion, which would turn its DequantizeLinear → op → QuantizeLinear chains
    // back into the integer operators it is there to check.
    graphOptimizationLevel: floatReference ? 'basic' : 'all',
    // Unset: onnxruntime's default, one thread per core.
    ...(threads ? { intraOpNumThreads: threads } : {}),
    // Idle intra-op threads sleep instead of spinning: on 2 cores a spinning thread takes the core that libvips
    // and the pixel thread need for the images composed while the upscaler runs (measured on a busy machine:
    // 5.8 instead of 6.2 s of CPU for a 460² crop, and no slower).
    extra: { session: { intra_op: { allow_spinning: '0' }, ...(floatReference ? { disable_quant_qdq: '1' } : {}) } },
  });
  session.catch(() => sessions.delete(key));
  sessions.set(key, session);
  return session;
}

parentPort.on('message', async (request) => {
  const { id, key, model, threads, floatReference, input, dims } = request;
  try {
    if (model) {
      const session = await createSession(key, model, threads, floatReference);
      parentPort.postMessage({ id, ok: true, inputs: session.inputNames, outputs: session.outputNames });
      return;
    }
    const pending = sessions.get(key);
    if (!pending) {
      // This thread was restarted since the model was loaded: the caller loads it again and resends the input.
      parentPort.postMessage({ id, ok: false, error: `${key} is not loaded`, unloadedInput: input }, [input]);
      return;
    }
    const session = await pending;
    const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', new Float32Array(input), dims) };
    const result = await session.run(feeds, [session.outputNames[0]]);
    const output = result[session.outputNames[0]];
    // Copied (one memcpy: Float32Array.from would go element by element) into a buffer of our own, which can be
    // handed over without another copy.
    const data = output.data.slice();
    parentPort.postMessage({ id, ok: true, output: data.buffer, dims: Array.from(output.dims) }, [data.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});

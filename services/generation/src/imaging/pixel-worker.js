'use strict';
// The pixel thread (see pixel-thread.ts): runs the studio's per-pixel JavaScript off the main thread.
// Plain JavaScript so the same file runs from src (tests) and dist (built service).
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { parentPort } = require('node:worker_threads');

if (existsSync(path.join(__dirname, 'pixel-tasks.ts'))) {
  // Started from the sources (the tests): TypeScript is compiled on load with swc, as jest does on the main thread.
  const swc = require('@swc/core');
  require.extensions['.ts'] = (module, filename) => {
    const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
      filename,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
}
const { pixelTasks } = require('./pixel-tasks');

/**
 * The memory of every typed array in the answer that owns its whole buffer: handed over, not copied. Shared memory
 * is never copied anyway (and cannot be in a transfer list).
 */
function transferables(value, found = new Set(), depth = 0) {
  if (ArrayBuffer.isView(value)) {
    const owned = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
    if (owned && value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (value && typeof value === 'object' && depth < 3) {
    for (const item of Object.values(value)) transferables(item, found, depth + 1);
  }
  return [...found];
}

parentPort.on('message', async ({ id, task, args }) => {
  try {
    // A task that calls libvips answers with a promise; the thread takes the next message meanwhile.
    const result = await pixelTasks[task](...args);
    parentPort.postMessage({ id, ok: true, result }, transferables(result));
  } catch (error) {
    // The message as the task said it (it may become an image's error), the stack for the logs.
    parentPort.postMessage({
      id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
  }
});

'use strict';
// The pixel thread's entry (see pixel-thread.ts): runs the kernels (../kernels/pixel-tasks) off the main thread.
// Plain JavaScript so the same file runs from src (tests) and dist (the built package).
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { parentPort } = require('node:worker_threads');

const tasksModule = path.join(__dirname, '..', 'kernels', 'pixel-tasks');

if (existsSync(`${tasksModule}.ts`)) {
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
const { pixelTasks } = require(tasksModule);

parentPort.on('message', async ({ id, task, args }) => {
  try {
    // A task that calls libvips answers with a promise; the thread takes the next message meanwhile.
    const result = await pixelTasks[task](...args);
    // Copied, never handed over (no transfer list): the first ArrayBuffer this thread detaches makes V8 recompile
    // every typed-array loop here with a detached-buffer check on each access, for the life of the thread (measured
    // on the sharpen, scene and compose loops: 16–37 % slower). The copy is a memcpy of the few MB an answer holds
    // (tile inputs, JPEGs); the large buffers (cut-outs, scenes, tile cores, the detailed product) are shared memory.
    parentPort.postMessage({ id, ok: true, result });
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

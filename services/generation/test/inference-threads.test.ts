import { TEST_SERVICE_AUTH_SECRET } from '@productgen/test-kit';
import { readdirSync } from 'node:fs';
import { generationConfigSchema } from '../src/config';
import { ensureModels, closeInferenceThread, openModel } from '@productgen/studio-engine/internals';
import { SHARED_MODELS_DIR } from './helpers';

/*
 * INFERENCE_THREADS reaches onnxruntime: a session made for n threads starts n - 1 threads of its own (the calling
 * inference thread is the n-th), which shows in this process's task list. The models are loaded once first, so the
 * inference thread and onnxruntime's environment already exist when the tasks are counted. Only the tasks that are new
 * are counted: jest runs other test files in this process before this one, and their threads may still be ending.
 */
const tasks = () => new Set(readdirSync('/proc/self/task'));
const started = (before: Set<string>) => [...tasks()].filter((task) => !before.has(task)).length;

describe('INFERENCE_THREADS', () => {
  afterAll(() => closeInferenceThread());

  test('is a whole number of at least 1, or unset', () => {
    expect(
      generationConfigSchema.parse({ SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, INFERENCE_THREADS: '1' })
        .INFERENCE_THREADS,
    ).toBe(1);
    expect(
      generationConfigSchema.parse({ SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET }).INFERENCE_THREADS,
    ).toBeUndefined();
    expect(() =>
      generationConfigSchema.parse({ SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, INFERENCE_THREADS: '0' }),
    ).toThrow('expected a positive number');
    expect(() =>
      generationConfigSchema.parse({ SERVICE_AUTH_SECRET: TEST_SERVICE_AUTH_SECRET, INFERENCE_THREADS: 'two' }),
    ).toThrow('expected a number');
  });

  test('sets the threads of each model run', async () => {
    const model = await (await ensureModels(SHARED_MODELS_DIR, undefined)).read('classifier');
    const input = () => new Float32Array(3 * 224 * 224).fill(0.5);
    const run = async (threads: number) => {
      const session = await openModel('inference-threads.test#classifier', model, 'classifier', { threads });
      return Array.from((await session.run(input(), [1, 3, 224, 224])).data.slice(0, 5));
    };
    const single = await run(1);
    const before = tasks();
    const three = await run(3);
    expect(started(before)).toBe(2);
    // The same model, the same answer, whatever the threads.
    expect(three).toEqual(single);
  }, 60_000);
});

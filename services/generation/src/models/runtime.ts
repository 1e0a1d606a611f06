import { readFile } from 'node:fs/promises';
import * as ort from 'onnxruntime-node';
import { z } from 'zod';
import type { ModelFiles } from './model-store';

/*
 * onnxruntime-node sessions are costly to create (~0.13 s for U²-Net) and safe to share, so each model file gets
 * one session per process, whoever asks for it.
 */
const sessions = new Map<string, Promise<ort.InferenceSession>>();

export function sessionFor(file: string): Promise<ort.InferenceSession> {
  let session = sessions.get(file);
  if (!session) {
    session = ort.InferenceSession.create(file, { graphOptimizationLevel: 'all' });
    // A failed load is not cached, so a repaired file can be picked up by the next call.
    session.catch(() => sessions.delete(file));
    sessions.set(file, session);
  }
  return session;
}

export interface ModelRuntime {
  segmentation: ort.InferenceSession;
  classifier: ort.InferenceSession;
  upscaler: ort.InferenceSession;
  /** ImageNet class names, index = class. */
  labels: readonly string[];
}

const labelsSchema = z.array(z.string()).length(1000);
const runtimes = new Map<string, Promise<ModelRuntime>>();

async function load(files: ModelFiles): Promise<ModelRuntime> {
  const [segmentation, classifier, upscaler, labelsText] = await Promise.all([
    sessionFor(files.pathOf('segmentation')),
    sessionFor(files.pathOf('classifier')),
    sessionFor(files.pathOf('upscaler')),
    readFile(files.pathOf('labels'), 'utf8'),
  ]);
  return { segmentation, classifier, upscaler, labels: labelsSchema.parse(JSON.parse(labelsText)) };
}

/** The three sessions and the labels of one model folder, loaded once per process. */
export function loadModelRuntime(files: ModelFiles): Promise<ModelRuntime> {
  let runtime = runtimes.get(files.dir);
  if (!runtime) {
    runtime = load(files);
    runtime.catch(() => runtimes.delete(files.dir));
    runtimes.set(files.dir, runtime);
  }
  return runtime;
}

export { ort };

import type { ExecutionBackend } from '../workers/protocol';

export interface DeviceBackend {
  backend: ExecutionBackend;
  /** Whether the page is cross-origin isolated (WASM threads work only then). */
  isolated: boolean;
  threads: number;
}

interface GpuNavigator {
  gpu?: { requestAdapter(): Promise<unknown> };
}

/**
 * WASM threads when the page is isolated: half the cores, so the page and the rest of the machine keep some, but at
 * least two (a dual-core phone or laptop would otherwise get one thread and nothing from isolation: inference there
 * takes about half the time with two). Not isolated, WASM runs on one thread.
 */
export function wasmThreads(isolated: boolean, cores: number): number {
  if (!isolated) return 1;
  return Math.min(Math.max(cores, 1), Math.max(2, Math.floor(cores / 2)));
}

/**
 * WebGPU only when the browser really has an adapter: onnxruntime-web's WebGPU build falls back silently on a
 * machine without one but takes seconds to create a session.
 */
export async function detectBackend(allowGpu: boolean): Promise<DeviceBackend> {
  const isolated = globalThis.crossOriginIsolated === true;
  const threads = wasmThreads(isolated, navigator.hardwareConcurrency || 2);
  if (allowGpu) {
    const gpu = (navigator as GpuNavigator).gpu;
    const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
    if (adapter) return { backend: 'webgpu', isolated, threads };
  }
  return { backend: 'wasm', isolated, threads };
}

export function describeBackend(device: DeviceBackend): string {
  if (device.backend === 'webgpu') return 'WebGPU (fast GPU)';
  return `WASM (CPU, ${device.threads} ${device.threads === 1 ? 'thread' : 'threads'})`;
}

/** SPEC §9's upscaling time estimates per backend. */
export function upscaleEstimate(device: DeviceBackend): string {
  if (device.backend === 'webgpu') return '10-30 s';
  return device.isolated ? '1-3 min' : '3-6 min';
}

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
 * WebGPU only when the browser really has an adapter: onnxruntime-web's WebGPU build falls back silently on a
 * machine without one but takes seconds to create a session. WASM threads: half the cores when isolated (SPEC §9).
 */
export async function detectBackend(allowGpu: boolean): Promise<DeviceBackend> {
  const isolated = globalThis.crossOriginIsolated === true;
  const threads = isolated ? Math.max(1, Math.floor((navigator.hardwareConcurrency || 2) / 2)) : 1;
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

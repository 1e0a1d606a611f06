import { hostCpu } from '@productgen/host-cpu';
import { int8KernelKinds, type Int8Kernels } from '../src/models/int8-kernels';

/**
 * The int8 kernel paths a test checks on this machine: u8×u8 always (exact on every CPU, so a VNNI machine catches a
 * fault in the path other servers run), u8×s8 where the CPU has VNNI (the only place the service runs it), and any
 * path named by INT8_KERNELS, to force a path where it does not belong and see the checks fail.
 */
export function int8PathsToCheck(): Int8Kernels[] {
  const forced = int8KernelKinds.find((kind) => kind === process.env.INT8_KERNELS);
  const paths: Int8Kernels[] = ['u8u8', ...(hostCpu().vnni ? (['u8s8'] as const) : []), ...(forced ? [forced] : [])];
  return [...new Set(paths)];
}

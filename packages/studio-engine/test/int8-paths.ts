import { hostCpu } from '@productgen/host-cpu';
import { chooseInt8Kernels, int8KernelKinds, type Int8Kernels, type QuantizedModel } from '../src/models/int8-kernels';

/**
 * The int8 kernel paths a test of `model` checks on this machine: u8×u8 always (exact on every CPU, so a VNNI
 * machine catches a fault in the path other servers run), the path the service runs the model on here (u8×s8 where
 * the CPU has VNNI, and the upscaler's u8×s8 on every x86-64 CPU), and any path named by INT8_KERNELS, to force a
 * path where it does not belong and see the checks fail.
 */
export function int8PathsToCheck(model: QuantizedModel): Int8Kernels[] {
  const forced = int8KernelKinds.find((kind) => kind === process.env.INT8_KERNELS);
  const paths: Int8Kernels[] = ['u8u8', chooseInt8Kernels(hostCpu())[model].kernels, ...(forced ? [forced] : [])];
  return [...new Set(paths)];
}

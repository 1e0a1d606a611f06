import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * What a model-running process and a benchmark need to know of the CPU: the int8 kernels onnxruntime picks, and so
 * the answers and speed of the quantized models, depend on these instruction sets.
 */
export interface HostCpu {
  model: string;
  cores: number;
  /** undefined where the flags cannot be read (not Linux, or no /proc). */
  avx2: boolean | undefined;
  avx512: boolean | undefined;
  /** AVX-512 VNNI or AVX-VNNI: u8×s8 dot products accumulated in 32 bits. */
  vnni: boolean | undefined;
  /** The VNNI flags found (`avx512_vnni`, `avx_vnni`). */
  vnniFlags: string[];
}

/** Reads the CPU from /proc/cpuinfo (Linux), or only its model and cores elsewhere. */
export function hostCpu(cpuinfo: string | undefined = readCpuinfo()): HostCpu {
  const model = os.cpus()[0]?.model.trim() || 'unknown CPU';
  const cores = os.availableParallelism();
  const flagsLine = cpuinfo?.split('\n').find((line) => /^flags\s*:/.test(line));
  if (!flagsLine) return { model, cores, avx2: undefined, avx512: undefined, vnni: undefined, vnniFlags: [] };
  const flags = new Set(
    flagsLine
      .slice(flagsLine.indexOf(':') + 1)
      .trim()
      .split(/\s+/),
  );
  const vnniFlags = ['avx512_vnni', 'avx_vnni'].filter((flag) => flags.has(flag));
  return {
    model,
    cores,
    avx2: flags.has('avx2'),
    avx512: flags.has('avx512f'),
    vnni: vnniFlags.length > 0,
    vnniFlags,
  };
}

function readCpuinfo(): string | undefined {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return undefined;
  }
}

const yesNo = (value: boolean | undefined) => (value === undefined ? 'unknown' : value ? 'yes' : 'no');

/** One line for the top of every benchmark: `CPU: AMD EPYC, 2 cores, AVX2 yes, AVX-512 yes, VNNI yes (avx512_vnni)`. */
export function describeCpu(cpu: HostCpu = hostCpu()): string {
  const vnni = cpu.vnniFlags.length > 0 ? `yes (${cpu.vnniFlags.join(', ')})` : yesNo(cpu.vnni);
  return `CPU: ${cpu.model}, ${cpu.cores} cores, AVX2 ${yesNo(cpu.avx2)}, AVX-512 ${yesNo(cpu.avx512)}, VNNI ${vnni}`;
}

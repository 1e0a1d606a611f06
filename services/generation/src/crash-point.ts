/*
 * Fault tests only. GENERATION_CRASH_AT=<step> (config.ts) ends the process with SIGKILL the moment a creation
 * reaches that step, exactly as a power cut would: no handler runs, nothing is acknowledged or flushed. The fault
 * test restarts the process without it and checks that every reserved credit still ends as an image or a give-back.
 */

export const crashSteps = ['after-reserve', 'before-queue', 'mid-render', 'before-give-back'] as const;
export type CrashStep = (typeof crashSteps)[number];
export type CrashPoint = (step: CrashStep) => void;

export function createCrashPoint(crashAt: CrashStep | undefined): CrashPoint {
  return (step) => {
    if (step === crashAt) process.kill(process.pid, 'SIGKILL');
  };
}

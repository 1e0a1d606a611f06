/*
 * Fault tests only. BULK_CRASH_AT=<step> (config.ts) ends the process with SIGKILL the moment a hand-over reaches
 * that step, as a power cut would: no handler runs, nothing is recorded. The fault test restarts the process without
 * it and checks that every product is created exactly once and the credits are exact.
 */

/**
 * mid-hand-over: generation has accepted the second product of a batch, and bulk has not yet recorded it (the
 * first product is recorded, the rest are still waiting).
 */
export const crashSteps = ['mid-hand-over'] as const;
export type CrashStep = (typeof crashSteps)[number];
export type CrashPoint = (step: CrashStep) => void;

export function createCrashPoint(crashAt: CrashStep | undefined): CrashPoint {
  return (step) => {
    if (step === crashAt) process.kill(process.pid, 'SIGKILL');
  };
}

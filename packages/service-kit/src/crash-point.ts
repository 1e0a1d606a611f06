/*
 * Fault tests only. A service's `<SERVICE>_CRASH_AT=<step>` (its config, refused in production) ends the process
 * with SIGKILL the moment its work reaches that step, exactly as a power cut would: no handler runs, nothing is
 * acknowledged, recorded or flushed. The fault tests restart the process without it and check that nothing was lost
 * or done twice.
 */
export type CrashPoint<Step extends string> = (step: Step) => void;

export function createCrashPoint<Step extends string>(crashAt: Step | undefined): CrashPoint<Step> {
  return (step) => {
    if (step === crashAt) process.kill(process.pid, 'SIGKILL');
  };
}

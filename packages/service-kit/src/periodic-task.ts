import type { Logger } from './logger';

/** A job a service repeats in the background: sweeps, recoveries, progress refreshes. */
export interface PeriodicTask {
  /** Starts the timer (again after a stop); a started task is left as it is. */
  start(): void;
  /** Stops the timer and waits for the pass that is running, so shutdown never cuts a pass in half. */
  stop(): Promise<void>;
  /** Runs a pass now (or waits for the one running); a failure is logged, not thrown. */
  runNow(): Promise<void>;
}

export interface PeriodicTaskOptions {
  /** Names the task in the log line of a failed pass. */
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  logger: Logger;
}

/**
 * Runs `run` every `intervalMs`, never two passes at once: a tick that finds the last pass still running is skipped
 * (a slow pass delays the next rather than piling up on the database). A failed pass is logged and the next tick
 * tries again. The timer does not keep the process alive.
 */
export function periodicTask({ name, intervalMs, run, logger }: PeriodicTaskOptions): PeriodicTask {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = run()
      .then(() => undefined)
      .catch((error: unknown) => logger.warn({ err: error }, `${name} failed; trying again later`))
      .finally(() => (running = undefined));
  };
  return {
    start() {
      if (timer) return;
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
    async runNow() {
      tick();
      await running;
    },
  };
}

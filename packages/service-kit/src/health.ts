import type { Logger } from 'pino';

/** A dependency check: resolves when the dependency answers, rejects (or hangs) when it does not. */
export type ReadinessCheck = () => Promise<void>;

export type CheckOutcome = 'ok' | 'failed' | 'timeout';

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, CheckOutcome>;
}

const TIMED_OUT = Symbol('timed out');

async function runOne(check: ReadinessCheck, timeoutMs: number): Promise<CheckOutcome | Error> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  try {
    const outcome = await Promise.race([check().then(() => 'ok' as const), timeout]);
    return outcome === TIMED_OUT ? 'timeout' : outcome;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs every check in parallel, each bounded by timeoutMs. The report names each dependency's outcome; the
 * reasons for failures go to the log only (they can carry hostnames and driver internals).
 */
export async function checkReadiness(
  checks: Record<string, ReadinessCheck>,
  timeoutMs: number,
  logger?: Logger,
): Promise<ReadinessReport> {
  const names = Object.keys(checks);
  const outcomes = await Promise.all(names.map((name) => runOne(checks[name] as ReadinessCheck, timeoutMs)));
  const report: ReadinessReport = { status: 'ok', checks: {} };
  names.forEach((name, index) => {
    const outcome = outcomes[index] as CheckOutcome | Error;
    if (outcome instanceof Error) {
      logger?.warn({ check: name, err: outcome }, 'readiness check failed');
      report.checks[name] = 'failed';
    } else {
      if (outcome === 'timeout') logger?.warn({ check: name, timeoutMs }, 'readiness check timed out');
      report.checks[name] = outcome;
    }
    if (report.checks[name] !== 'ok') report.status = 'unavailable';
  });
  return report;
}

import { periodicTask } from '@productgen/service-kit';
import { memoryLogger } from './helpers';

/** A pass the test ends when it chooses. */
function controlledRun() {
  const passes: Array<{ finish: () => void; fail: (error: Error) => void }> = [];
  const run = () => new Promise<void>((resolve, reject) => passes.push({ finish: resolve, fail: reject }));
  return { run, passes };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('periodicTask', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  test('runs every interval, never two passes at once: a tick during a pass is skipped', async () => {
    const { logger } = memoryLogger();
    const { run, passes } = controlledRun();
    const task = periodicTask({ name: 'sweep', intervalMs: 100, run, logger });
    task.start();
    task.start(); // a second start keeps the one timer
    jest.advanceTimersByTime(100);
    expect(passes).toHaveLength(1);
    jest.advanceTimersByTime(500); // the first pass is still running
    expect(passes).toHaveLength(1);
    passes[0]!.finish();
    await settle();
    jest.advanceTimersByTime(100);
    expect(passes).toHaveLength(2);
    passes[1]!.finish();
    await task.stop();
  });

  test('stop waits for the running pass and ends the timer', async () => {
    const { logger } = memoryLogger();
    const { run, passes } = controlledRun();
    const task = periodicTask({ name: 'sweep', intervalMs: 100, run, logger });
    task.start();
    jest.advanceTimersByTime(100);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    passes[0]!.finish();
    await stopping;
    jest.advanceTimersByTime(1000);
    expect(passes).toHaveLength(1);
  });

  test('a failed pass is logged with the task name and the next tick tries again; runNow runs at once', async () => {
    const { logger, lines } = memoryLogger();
    const { run, passes } = controlledRun();
    const task = periodicTask({ name: 'ledger recovery', intervalMs: 100, run, logger });
    const first = task.runNow();
    expect(passes).toHaveLength(1);
    passes[0]!.fail(new Error('database away'));
    await first;
    expect(lines().map((line) => line.msg)).toContain('ledger recovery failed; trying again later');
    task.start();
    jest.advanceTimersByTime(100);
    expect(passes).toHaveLength(2);
    passes[1]!.finish();
    await task.stop();
  });
});

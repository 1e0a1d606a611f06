import { PacedRuns } from '../src/progress';

/** Pure scheduling: a refresh stand-in that records when each run of a key started and ended. */
function recorder() {
  const runs: { key: string; startedAt: number; endedAt?: number }[] = [];
  const running: (() => void)[] = [];
  const work = async (key: string) => {
    const run: { key: string; startedAt: number; endedAt?: number } = { key, startedAt: performance.now() };
    runs.push(run);
    await new Promise<void>((resolve) => running.push(resolve));
    run.endedAt = performance.now();
  };
  /** Lets the oldest run in progress finish. */
  const finish = () => running.shift()?.();
  return { runs, work, finish };
}

/** Waits (a macrotask at a time) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('paced refreshes (PacedRuns)', () => {
  const interval = 40;

  it('runs the first ask at once and merges the asks made meanwhile into one later run', async () => {
    const { runs, work, finish } = recorder();
    const paced = new PacedRuns(work, interval);
    const first = paced.ask('job');
    // Asks made before a run starts join it.
    expect(paced.ask('job')).toBe(first);
    await until(() => runs.length === 1);
    const merged = Array.from({ length: 10 }, () => paced.ask('job'));
    expect(new Set(merged).size).toBe(1);
    expect(merged[0]).not.toBe(first);
    finish();
    await first;
    // The merged run starts only once the interval since the first run's start is over.
    await until(() => runs.length === 2);
    expect(runs[1]!.startedAt - runs[0]!.startedAt).toBeGreaterThanOrEqual(interval);
    expect(runs[1]!.startedAt).toBeGreaterThanOrEqual(runs[0]!.endedAt!);
    finish();
    await merged[0];
    expect(runs).toHaveLength(2);
  });

  it('keeps keys apart, and runs a key again when asked after its interval', async () => {
    const { runs, work, finish } = recorder();
    const paced = new PacedRuns(work, interval);
    const a = paced.ask('a');
    const b = paced.ask('b');
    await until(() => runs.length === 2);
    expect(runs.map((run) => run.key)).toEqual(['a', 'b']);
    finish();
    await a;
    finish();
    await b;
    await new Promise((resolve) => setTimeout(resolve, interval + 10));
    const again = paced.ask('a');
    await until(() => runs.length === 3);
    expect(runs[2]!.key).toBe('a');
    finish();
    await again;
  });

  it('a failed run fails the asks it served, and the next ask runs again', async () => {
    let calls = 0;
    const paced = new PacedRuns(async () => {
      calls += 1;
      if (calls === 1) throw new Error('generation did not answer');
    }, interval);
    await expect(paced.ask('job')).rejects.toThrow('generation did not answer');
    await expect(paced.ask('job')).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, readlink } from 'node:fs/promises';
import { getPriority } from 'node:os';
import { pollUntil } from '@productgen/test-kit';

/**
 * Killing and restarting single processes of the distributed rehearsal (`npm run start:distributed`). The launcher
 * starts each process with the command and environment compose would give its container, and never restarts one
 * that ends, as an orchestrator would. A restart here reads how the process was started from Linux's /proc (its
 * command line, environment, folder and niceness), ends it, and starts the same command again, optionally with a few
 * variables or arguments more: the same binary, the same addresses and data folders, so the rest of the platform
 * sees its peer come back as after a container restart. Linux only (the rehearsal and CI run on Debian).
 */

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the process has ended (it is not our child when the launcher started it, so no 'exit' event). */
export async function waitForExit(pid: number, what: string): Promise<void> {
  await pollUntil(
    `${what} to end`,
    async () => isRunning(pid),
    (running) => !running,
    { intervalMs: 50 },
  );
}

interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Its CPU weight as niceness (the launcher starts a container with cpu_shares this much nicer). */
  niceness: number;
}

/** A process's niceness, field 19 of /proc/<pid>/stat (counted after the command name, which may hold spaces). */
export async function nicenessOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

async function launchOf(pid: number): Promise<Launch> {
  const split = (text: string) => text.split('\0').filter((part) => part !== '');
  const [command, ...args] = split(await readFile(`/proc/${pid}/cmdline`, 'utf8'));
  const env = Object.fromEntries(
    split(await readFile(`/proc/${pid}/environ`, 'utf8')).map((entry) => {
      const at = entry.indexOf('=');
      return [entry.slice(0, at), entry.slice(at + 1)];
    }),
  );
  return { command: command!, args, env, cwd: await readlink(`/proc/${pid}/cwd`), niceness: await nicenessOf(pid) };
}

export interface RestartOptions {
  /** Variables set on top of the process's own environment. */
  env?: Record<string, string>;
  /** Arguments appended to its command line. */
  args?: string[];
  /** How it ends first: SIGTERM drains (a restart), SIGKILL is a crash. */
  signal?: NodeJS.Signals;
  /**
   * Started again whenever it ends on its own, as compose's `restart: unless-stopped` and Kubernetes do (a render
   * worker that starts while the object store is down exits, and its orchestrator starts it again). Not for a process
   * set to crash at a step, which would crash again and again.
   */
  supervise?: boolean;
  /**
   * Resolves once the new process is ready. Without it the restart returns as soon as the process is spawned: a
   * render worker has no port, and what the test waits for is the work it does.
   */
  ready?: (child: ChildProcess, output: () => string) => Promise<void>;
}

/** Readiness of a service with an HTTP port: its /readyz answers 200 (what the compose healthcheck asks). */
export function readyzOn(port: string | number): NonNullable<RestartOptions['ready']> {
  return async () => {
    await pollUntil(
      `/readyz on port ${port}`,
      () =>
        fetch(`http://127.0.0.1:${port}/readyz`, { headers: { connection: 'close' } }).then(
          (answer) => answer.status,
          () => 0,
        ),
      (status) => status === 200,
      { timeoutMs: 120_000 },
    );
  };
}

/** Readiness of a process that prints one line once it listens (the embedded MongoDB and S3). */
export const printedFirstLine: NonNullable<RestartOptions['ready']> = async (child, output) => {
  await pollUntil(
    'the first line',
    async () => {
      if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}):\n${output()}`);
      return output();
    },
    (text) => text.includes('\n'),
    { intervalMs: 50 },
  );
};

/**
 * The rehearsal's processes by name (the launcher's summary names them), following each through restarts. The
 * processes started here are ours to stop: `stopRestarted` ends the services first and the data stores last, as
 * the launcher does.
 */
export class RehearsalProcesses {
  private readonly pids: Map<string, number>;
  private readonly restarted = new Map<
    string,
    { child: ChildProcess; infrastructure: boolean; output: () => string }
  >();

  constructor(
    pids: Record<string, number>,
    /** Names of the data stores (stopped after everything else). */
    private readonly infrastructure: ReadonlySet<string> = new Set(['mongo', 's3']),
  ) {
    this.pids = new Map(Object.entries(pids));
  }

  pid(name: string): number {
    const pid = this.pids.get(name);
    if (pid === undefined) throw new Error(`no process named ${name}; known: ${[...this.pids.keys()].join(', ')}`);
    return pid;
  }

  /** Its environment as it runs now (ports, URLs). */
  async environmentOf(name: string): Promise<Record<string, string>> {
    return (await launchOf(this.pid(name))).env;
  }

  /** Times a supervised process was started again after it ended on its own, by name. */
  readonly supervisedRestarts = new Map<string, number>();
  /** Processes ended here on purpose (not to be started again by supervision). */
  private readonly endedOnPurpose = new Set<number>();

  /** Sends the signal and waits until the process has ended. */
  async kill(name: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const pid = this.pid(name);
    this.endedOnPurpose.add(pid);
    process.kill(pid, signal);
    await waitForExit(pid, name);
  }

  /** Waits until the named process has ended on its own (a crash point it was started with). */
  async ended(name: string): Promise<void> {
    await waitForExit(this.pid(name), name);
  }

  /** Starts the process again exactly as it was started (plus `options`), ending the running one first. */
  async restart(name: string, options: RestartOptions = {}): Promise<ChildProcess> {
    const pid = this.pid(name);
    const launch = await launchOf(pid);
    if (isRunning(pid)) await this.kill(name, options.signal ?? 'SIGTERM');
    return this.launch(name, launch, options);
  }

  /** Starts a process that has already ended again, from the launch read while it ran. */
  async prepareRestart(name: string): Promise<(options?: RestartOptions) => Promise<ChildProcess>> {
    const launch = await launchOf(this.pid(name));
    return (options = {}) => this.launch(name, launch, options);
  }

  private async launch(name: string, launch: Launch, options: RestartOptions): Promise<ChildProcess> {
    const argv = [launch.command, ...launch.args, ...(options.args ?? [])];
    // nice(1) adds to the niceness this process runs at.
    const steps = launch.niceness - getPriority();
    const [file, ...args] = steps > 0 ? ['nice', '-n', String(steps), ...argv] : argv;
    const child = spawn(file!, args, {
      cwd: launch.cwd,
      env: { ...launch.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    this.pids.set(name, child.pid!);
    this.restarted.set(name, { child, infrastructure: this.infrastructure.has(name), output: () => output });
    if (options.supervise) {
      child.once('exit', () => {
        if (this.endedOnPurpose.has(child.pid!) || this.pids.get(name) !== child.pid) return;
        this.supervisedRestarts.set(name, (this.supervisedRestarts.get(name) ?? 0) + 1);
        void this.launch(name, launch, { ...options, ready: undefined });
      });
    }
    await options.ready?.(child, () => output);
    return child;
  }

  /** What the processes started here printed (the last start of each), for a failed run's log. */
  outputs(): string {
    return [...this.restarted].map(([name, entry]) => `── ${name} (restarted)\n${entry.output()}`).join('\n');
  }

  /** Ends the processes started here: services first (they drain), then the data stores. */
  async stopRestarted(which: 'services' | 'infrastructure' | 'all' = 'all'): Promise<void> {
    const stop = async (child: ChildProcess) => {
      this.endedOnPurpose.add(child.pid!);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(kill);
    };
    const group = (infrastructure: boolean) =>
      Promise.all(
        [...this.restarted.values()]
          .filter((entry) => entry.infrastructure === infrastructure)
          .map((entry) => stop(entry.child)),
      );
    if (which !== 'infrastructure') await group(false);
    if (which !== 'services') await group(true);
  }
}

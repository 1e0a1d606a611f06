import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@productgen/test-kit/platform-process';
import { pollUntil } from '@productgen/test-kit';

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Sends the signal (when still running) and resolves once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs one built service entry point (e.g. `services/billing/dist/main.js`) as its own process, the way a
 * distributed deployment runs it, and resolves once it is ready: its GET /readyz answers 200 (`readyUrl`), or its
 * output shows `readyLine` (a process without an HTTP port, such as a worker). Fails with the process's output
 * when it exits first or is not ready in time.
 */
export async function startServiceProcess(options: {
  name: string;
  /** Path from the repository root. */
  script: string;
  env: Record<string, string>;
  readyUrl?: string;
  readyLine?: string;
  startTimeoutMs?: number;
  /** Called as soon as the process exists, before it is ready, so a caller can stop it even while it starts. */
  onSpawned?: (service: ServiceProcess) => void;
}): Promise<ServiceProcess> {
  const script = path.join(repoRoot, options.script);
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first (npm test does).`);
  const child = spawn(process.execPath, [script], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const service: ServiceProcess = {
    name: options.name,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (running()) child.kill(signal);
      await exited;
    },
  };
  options.onSpawned?.(service);

  const isReady = async (): Promise<boolean> => {
    if (!running()) throw new Error(`${options.name} exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    if (options.readyLine !== undefined && !output.includes(options.readyLine)) return false;
    if (options.readyUrl === undefined) return true;
    try {
      return (await fetch(`${options.readyUrl}/readyz`)).status === 200;
    } catch {
      return false; // not listening yet
    }
  };
  try {
    await pollUntil(`${options.name} to be ready`, isReady, (ready) => ready, {
      timeoutMs: options.startTimeoutMs ?? 120_000,
      intervalMs: 100,
    });
  } catch (error) {
    await service.stop('SIGKILL');
    throw new Error(`${(error as Error).message}\n${options.name} output:\n${output}`, { cause: error });
  }
  return service;
}

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@productgen/service-kit/local-ports';

/** The repository root (packages/test-kit/src or dist → ../../..). */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');
const launcher = path.join(repoRoot, 'packages', 'devstack', 'dist', 'main.js');

/** A free loopback port for a process the test starts next (local-ports says why not the kernel's pick). */
export { freePort };

export interface PlatformProcess {
  webUrl: string;
  apiUrl: string;
  child: ChildProcess;
  output(): string;
  /** Sends the signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs the platform exactly as `npm start` does after its build step (node packages/devstack/dist/main.js), on
 * free ports and the given data directory, and resolves once it prints that it is running.
 */
export async function startPlatformProcess(options: {
  dataDir: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
}): Promise<PlatformProcess> {
  if (!existsSync(launcher)) throw new Error(`${launcher} is missing: run \`npm run build\` first (npm test does).`);
  // A free port found here can be taken by another process (suites run in parallel) before the launcher binds
  // it; that start fails with EADDRINUSE and is simply tried again on new ports.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePorts(options);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOnFreePorts(options: {
  dataDir: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
}): Promise<PlatformProcess> {
  const [webPort, apiPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [launcher], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: options.dataDir,
      WEB_PORT: String(webPort),
      API_PORT: String(apiPort),
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`platform did not start in time:\n${output}`)),
      options.startTimeoutMs ?? 60_000,
    );
    const onData = () => {
      if (output.includes('is running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`platform exited with ${code} before it was ready:\n${output}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    // A launcher that never became ready must not outlive the test: it would keep the test run from exiting.
    child.kill('SIGKILL');
    await exited;
    throw error;
  }

  return {
    webUrl: `http://localhost:${webPort}`,
    apiUrl: `http://localhost:${apiPort}`,
    child,
    output: () => output,
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Signs a person in through the built-in dev identity provider, as the shell's dev sign-in dialog does. `headers`
 * go with both calls: a test that calls the auth service itself rather than the gateway sends the service token
 * the gateway would (test-kit's `serviceCallHeaders()`).
 */
export async function signInWithDevIdentity(
  apiUrl: string,
  person: { email: string; given_name: string; family_name: string },
  refCode: string | null = null,
  headers: Record<string, string> = {},
): Promise<{ session_key: string; user: { id: string; email: string; [key: string]: unknown } }> {
  const query = new URLSearchParams(person);
  const credentialAnswer = await fetch(`${apiUrl}/dev-idp/credential?${query}`, { headers });
  if (!credentialAnswer.ok) throw new Error(`dev-idp answered ${credentialAnswer.status}`);
  const { credential } = (await credentialAnswer.json()) as { credential: string };
  const signIn = await fetch(`${apiUrl}/auth/google`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ credential, ref_code: refCode }),
  });
  if (!signIn.ok) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
  return (await signIn.json()) as { session_key: string; user: { id: string; email: string } };
}

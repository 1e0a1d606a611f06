import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '@productgen/test-kit/platform-process';

const builder = path.join(__dirname, 'build-microfrontend-variant.js');

/**
 * Builds a changed copy of a microfrontend (e.g. "mfe-dashboard") into `outputDir` with the workspace's own webpack
 * config, `append` added to the end of `module` (a path inside the workspace, e.g. "src/app.tsx"). The repository's
 * files and dist/ stay as they are. Resolves once the build has succeeded; rejects with webpack's errors.
 */
export function buildMicrofrontendVariant(options: {
  workspace: string;
  outputDir: string;
  module: string;
  append: string;
}): Promise<void> {
  const request = JSON.stringify({
    workspaceDir: path.join(repoRoot, options.workspace),
    outputDir: options.outputDir,
    module: options.module,
    append: options.append,
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builder, request], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`building a variant of ${options.workspace} failed (${code}):\n${output}`)),
    );
  });
}

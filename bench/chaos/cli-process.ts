import { spawn, type ChildProcess } from 'node:child_process';
import type { WriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const cliEntry = path.join(repositoryRoot, 'src/cli/main.ts');

/** A script of this repository, run from source like the CLI: `devkit/versioning/worker-b.ts`. */
export const repositoryScript = (relativePath: string) => path.join(repositoryRoot, relativePath);

/**
 * Node's arguments that run a TypeScript script of src/ or devkit/: from the build scripts/run-tests.mjs made
 * for the run (BANKFLOW_TEST_BUILD_DIR, scripts/test-build.mjs) where there is one, since node starts it
 * without compiling it again, else from source under tsx.
 */
function nodeArgsFor(script: string): string[] {
  const buildDir = process.env.BANKFLOW_TEST_BUILD_DIR;
  const relative = path.relative(repositoryRoot, script);
  if (buildDir && /^(src|devkit)\//.test(relative))
    return [path.join(buildDir, relative.replace(/\.ts$/, '.js'))];
  return ['--import', 'tsx', script];
}

/** The CLI, as `nodeArgsFor` runs it. */
export const cliNodeArgs = () => nodeArgsFor(cliEntry);

/**
 * One `bankflow <command>` process, run from source or the tests' build as an operator would run the built
 * CLI.
 */
export interface CliProcess {
  child: ChildProcess;
  /** Resolves once its output shows `readyWhen`; rejects if it exits first. */
  ready: Promise<void>;
  exited: Promise<void>;
}

/**
 * `entry` runs another script in the CLI's place (the chaos run's new build,
 * `devkit/versioning/worker-b.ts`).
 */
export function startCliProcess(
  args: string[],
  env: Record<string, string>,
  log: WriteStream,
  readyWhen: string,
  entry = cliEntry,
): CliProcess {
  const child = spawn(process.execPath, [...nodeArgsFor(entry), ...args], {
    cwd: repositoryRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log.write(chunk);
      if (output.length < 100_000) output += chunk.toString();
      if (output.includes(readyWhen)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(
        new Error(
          `${entry === cliEntry ? `bankflow ${args.join(' ')}` : path.basename(entry)} exited (${signal ?? code}):\n${output.slice(-2_000)}`,
        ),
      ),
    );
  });
  // Whoever kills a process before it is ready does not wait for it to be.
  ready.catch(() => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, ready, exited };
}

/** SIGTERM (the process drains and exits), SIGKILL if it is still there after `graceMs`. */
export async function terminate(process: CliProcess, graceMs = 15_000): Promise<void> {
  if (process.child.exitCode !== null || process.child.signalCode !== null) return;
  process.child.kill('SIGTERM');
  const timer = setTimeout(() => process.child.kill('SIGKILL'), graceMs);
  await process.exited;
  clearTimeout(timer);
}

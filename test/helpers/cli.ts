import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Socket } from 'node:net';
import { cliNodeArgs } from '../../bench/chaos/cli-process.js';

/**
 * The CLI from the test run's build or from source (no `npm run build` needed), with a clean development
 * environment plus `env`.
 */
function spawnCli(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...cliNodeArgs(), ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      BANKFLOW_ENV: 'development',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end; `input` is what it reads on stdin. */
export function runCli(args: string[], env: Record<string, string> = {}, input = ''): Promise<CliResult> {
  const child = spawnCli(args, env);
  child.stdin.end(input);
  return outputOf(child);
}

/** What a child process printed, once it exits. */
export function outputOf(child: ChildProcessWithoutNullStreams): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface LongRunningCli {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(args: string[], env: Record<string, string> = {}): LongRunningCli {
  return watchProcess(spawnCli(args, env));
}

/** A started process, watched as a long-running CLI: its output so far, a wait for a line, and a stop. */
export function watchProcess(child: ChildProcessWithoutNullStreams): LongRunningCli {
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const check = () => {
          const match = pattern.exec(output);
          if (match) return resolve(match[0]);
          if (child.exitCode !== null) return reject(new Error(`CLI exited (${child.exitCode}):\n${output}`));
          if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${pattern}:\n${output}`));
          setTimeout(check, 100);
        };
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** How a long-running CLI ended: its exit code, and its whole output when that code is not 0. */
export interface StoppedCli {
  code: number | null;
  output: string;
}
export const cleanExit: StoppedCli = { code: 0, output: '' };

/**
 * Stops `cli` with `signal`. Called in a `finally` and asserted after it, so a failure inside the `try` keeps
 * its own message instead of being replaced by the exit code it caused.
 */
export async function stopCli(cli: LongRunningCli, signal?: NodeJS.Signals): Promise<StoppedCli> {
  const code = await cli.stop(signal);
  return { code, output: code === 0 ? '' : cli.output() };
}

export { freePort } from '../../bench/chaos/ports.js';

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

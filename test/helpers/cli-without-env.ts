import { spawn } from 'node:child_process';
import { cliNodeArgs } from '../../bench/chaos/cli-process.js';
import { outputOf, type CliResult } from './cli.js';

/**
 * The CLI run with no BANKFLOW_ENV at all, as in a shell that never set it (runCli always sets one): only
 * PATH and HOME, and `env`.
 */
export function runCliWithoutEnvironment(
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, [...cliNodeArgs(), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  child.stdin.end();
  return outputOf(child);
}

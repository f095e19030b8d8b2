import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchStack } from './stack.js';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

export interface ProcessSample {
  /** performance.now() of the reading. */
  at: number;
  rssBytes: number;
  /** User plus system CPU time the process used since it started. */
  cpuMs: number;
}

function clockTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}
const ticksPerSecond = clockTicksPerSecond();

/** Resident memory and CPU time of a process, from Linux's /proc. */
export function sampleProcess(pid: number): ProcessSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { at: performance.now(), rssBytes: rssKb * 1024, cpuMs: (ticks * 1000) / ticksPerSecond };
}

/** The pid of this process's child named `name` (as /proc's `comm` shows it), if there is one. */
export function childPid(name: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === name && parent === process.pid) return Number(entry);
    } catch {
      // The process ended while the table was read.
    }
  }
  return undefined;
}

/** Samples a process every `intervalMs` until stopped. */
export function watchProcess(pid: number, intervalMs = 100) {
  const samples: ProcessSample[] = [sampleProcess(pid)];
  const timer = setInterval(() => samples.push(sampleProcess(pid)), intervalMs);
  return {
    samples,
    stop(): ProcessSample[] {
      clearInterval(timer);
      samples.push(sampleProcess(pid));
      return samples;
    },
  };
}

/** CPU use between two samples, as a share of one core (1 = one core busy all the time). */
export const cpuShare = (from: ProcessSample, to: ProcessSample) =>
  (to.cpuMs - from.cpuMs) / (to.at - from.at);

export interface BankflowProcess {
  pid: number;
  /** What `ready` matched in the output. */
  ready: RegExpMatchArray;
  stop(): Promise<void>;
}

export interface BankflowProcessOptions {
  /** The `bankflow` command, e.g. `worker` or `webhooks`. */
  command: string;
  env: Record<string, string>;
  nodeArgs: string[];
  /** Where its stdout and stderr go. */
  logFile: string;
  /** Seen in its output once it serves. */
  ready: RegExp;
}

/**
 * A `bankflow` command from dist/ (what an operator runs) as a process of its own, so its memory and CPU are
 * its own. Resolves once its output matches `ready`.
 */
export async function startBankflowProcess(options: BankflowProcessOptions): Promise<BankflowProcess> {
  if (!existsSync(path.join(repoRoot, 'dist', 'src', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (`npm run bench` does)');
  }
  return startNodeProcess({
    ...options,
    name: `bankflow ${options.command}`,
    args: [...options.nodeArgs, path.join(repoRoot, 'bin', 'bankflow.js'), options.command],
  });
}

/** A Node.js process of its own, running `args`; resolves once its output matches `ready`. */
async function startNodeProcess(options: {
  name: string;
  args: string[];
  env: Record<string, string>;
  logFile: string;
  ready: RegExp;
}): Promise<BankflowProcess> {
  // Its output goes straight to the file: through a pipe to this busy process, a full pipe would stall its
  // logging (synchronous) and show up as its latency.
  const log = openSync(options.logFile, 'a');
  const child = spawn(process.execPath, options.args, {
    cwd: repoRoot,
    env: options.env,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = performance.now() + 120_000;
  const ready = await (async () => {
    for (;;) {
      const match = options.ready.exec(readFileSync(options.logFile, 'utf8'));
      if (match) return match;
      if (child.exitCode !== null) {
        throw new Error(`${options.name} exited with code ${child.exitCode}; see ${options.logFile}`);
      }
      if (performance.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${options.name} did not start within 120 s; see ${options.logFile}`);
      }
      await sleep(200);
    }
  })();
  return {
    pid: child.pid ?? 0,
    ready,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * `count` `bankflow worker` processes on `taskQueue`, each with a data directory and a log of its own, added
 * to `into` as each is running, so a caller that stops `into` stops those that started when a later one
 * fails.
 */
export async function startBankflowWorkers(
  stack: Pick<BenchStack, 'workDir' | 'workerNodeArgs'>,
  taskQueue: string,
  count: number,
  env: Record<string, string>,
  into: BankflowProcess[],
): Promise<void> {
  for (let index = 0; index < count; index++) {
    into.push(
      await startBankflowProcess({
        command: 'worker',
        env: { ...env, BANKFLOW_DATA_DIR: path.join(stack.workDir, `data-${taskQueue}-${index}`) },
        nodeArgs: stack.workerNodeArgs,
        logFile: path.join(stack.workDir, `worker-${taskQueue}-${index}.log`),
        ready: /"worker running"/,
      }),
    );
  }
}

export interface ChildWorker extends BankflowProcess {
  taskQueue: string;
}

/**
 * `bankflow worker` on a task queue of its own, reaching the bench stack; `nodeArgs` come before the stack's
 * own, so `--worker-heap-mb` still wins.
 */
export async function startChildWorker(
  stack: BenchStack,
  taskQueue: string,
  nodeArgs: string[] = [],
): Promise<ChildWorker> {
  const worker = await startBankflowProcess({
    command: 'worker',
    env: stack.processEnv(taskQueue),
    nodeArgs: [...nodeArgs, ...stack.workerNodeArgs],
    logFile: path.join(stack.workDir, `worker-${taskQueue}.log`),
    ready: /"worker running"/,
  });
  return { ...worker, taskQueue };
}

/**
 * The engine floor's worker (skeleton/worker.ts) as a process of its own, like a `bankflow worker` child:
 * each side's CPU is then its own worker process's, apart from the driver and the bank in the bench process.
 * With `maxCachedWorkflows` it keeps that many workflows cached instead of the SDK's default.
 */
export async function startSkeletonWorker(
  stack: BenchStack,
  taskQueue: string,
  options: { maxCachedWorkflows?: number } = {},
): Promise<ChildWorker> {
  const cache = options.maxCachedWorkflows;
  const worker = await startNodeProcess({
    name: 'the skeleton worker',
    args: [...stack.workerNodeArgs, '--import', 'tsx', path.join(repoRoot, 'bench', 'skeleton', 'worker.ts')],
    env: {
      ...stack.processEnv(taskQueue),
      ...(cache === undefined ? {} : { SKELETON_MAX_CACHED_WORKFLOWS: String(cache) }),
    },
    logFile: path.join(stack.workDir, `skeleton-${taskQueue}.log`),
    ready: /skeleton worker running/,
  });
  return { ...worker, taskQueue };
}

/** This process's own CPU time, in the shape of a ProcessSample (RSS included). */
export function sampleSelf(): ProcessSample {
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    rssBytes: process.memoryUsage.rss(),
    cpuMs: (usage.user + usage.system) / 1000,
  };
}

/**
 * Waits until a process has used less than `share` of a core over `windowMs`, so work left over from one
 * measurement (workflow tasks still draining) does not land in the next. Gives up silently after `timeoutMs`.
 */
export async function waitUntilQuiet(
  sample: () => ProcessSample,
  { share = 0.1, windowMs = 500, timeoutMs = 30_000 } = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let from = sample();
  while (performance.now() < deadline) {
    await sleep(windowMs);
    const to = sample();
    if (cpuShare(from, to) < share) return;
    from = to;
  }
}

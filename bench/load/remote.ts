import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { OpenLoopRun } from '../pacing.js';
import type { LoadJob, LoadMessage, LoadReply } from './protocol.js';

export interface LoadGenerator {
  /** The generator process, whose CPU time in a bare run is what the plain Temporal client spends. */
  pid: number;
  run(job: LoadJob): Promise<OpenLoopRun>;
  stop(): Promise<void>;
}

/** Starts the load generator process (bench/load/generator.ts) and hands it one job at a time. */
export function startLoadGenerator(): LoadGenerator {
  const child = fork(fileURLToPath(new URL('./generator.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve(run: OpenLoopRun): void; reject(error: Error): void }>();
  let sequence = 0;
  child.on('message', (reply: LoadReply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if ('run' in reply) pending?.resolve(reply.run);
    else pending?.reject(new Error(`load generator: ${reply.error}`));
  });
  child.on('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`load generator exited (${code})`));
    waiting.clear();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid ?? Number.NaN,
    run(job) {
      const id = ++sequence;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ id, job } satisfies LoadMessage);
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.disconnect();
      await exited;
    },
  };
}

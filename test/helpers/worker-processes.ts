import { createWriteStream, type WriteStream } from 'node:fs';
import { startCliProcess, terminate, type CliProcess } from '../../bench/chaos/cli-process.js';

/**
 * `bankflow worker` processes a test starts and kills, their output in one log file (opened with the first),
 * each stopped by `stopAll` at the end.
 */
export function workerProcesses(logFile: () => string) {
  let log: WriteStream | undefined;
  const workers: CliProcess[] = [];
  return {
    async start(env: Record<string, string>): Promise<CliProcess> {
      log ??= createWriteStream(logFile());
      const worker = startCliProcess(['worker'], env, log, 'worker running');
      workers.push(worker);
      await worker.ready;
      return worker;
    },
    /** SIGKILL: no shutdown, as a crash or the kernel's OOM killer ends it. */
    async kill(worker: CliProcess): Promise<void> {
      worker.child.kill('SIGKILL');
      await worker.exited;
    },
    async stopAll(): Promise<void> {
      await Promise.all(workers.map((worker) => terminate(worker, 5_000)));
      await new Promise((resolve) => (log ? log.end(resolve) : resolve(undefined)));
    },
  };
}

import { sampleProcess, sampleSelf } from './processes.js';
import type { BenchStack } from './stack.js';
import { median } from './stats.js';

/** CPU time of the processes a measured piece of work runs through, in ms. */
export interface CpuSplit {
  worker: number;
  receiver: number;
  temporal: number;
  /** Worker, receiver and Temporal server: what bankflow's side costs. */
  total: number;
  /** This process: the driver (merchant backend, customer device, direct paging) and the sandbox bank. */
  outside: number;
}

/** CPU time used so far by every process of the stack (the Temporal server's when it was found). */
export function stackCpuMs(stack: BenchStack, workerPid: number): CpuSplit {
  const worker = sampleProcess(workerPid).cpuMs;
  const receiver = sampleProcess(stack.receiverPid).cpuMs;
  const temporal = stack.temporalPid === undefined ? 0 : sampleProcess(stack.temporalPid).cpuMs;
  return { worker, receiver, temporal, total: worker + receiver + temporal, outside: sampleSelf().cpuMs };
}

/** The median of each part over several measurements. */
export function medianCpu(splits: CpuSplit[]): CpuSplit {
  const of = (key: keyof CpuSplit) => median(splits.map((split) => split[key]));
  return {
    worker: of('worker'),
    receiver: of('receiver'),
    temporal: of('temporal'),
    total: of('total'),
    outside: of('outside'),
  };
}

/** The CPU spent between two readings, divided over `count` pieces of work. */
export function cpuPer(before: CpuSplit, after: CpuSplit, count = 1): CpuSplit {
  const per = (key: keyof CpuSplit) => (after[key] - before[key]) / count;
  return {
    worker: per('worker'),
    receiver: per('receiver'),
    temporal: per('temporal'),
    total: per('total'),
    outside: per('outside'),
  };
}

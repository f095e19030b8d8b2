import { executeChild } from '@temporalio/workflow';
import { workflowIds } from '../../contract/ids.js';
import type { AttemptsSyncInput, AttemptsSyncSummary } from '../../contract/attempts-sync.js';
import { syncAttemptsSlice } from './attempts-slice-workflow.js';
import { addSlice } from './attempts-summary.js';

interface Window {
  from: string;
  to: string;
}

export interface SlicePlan {
  slices: Window[];
  /** Slices paged at once. */
  concurrency: number;
}

/**
 * A page chain fetches one page per round trip (the bank's latency plus a trip through the task queue), so it
 * alone cannot use a rate limit of many calls per second. The plan runs enough chains to fill the limit with
 * round trips of up to half a second; the queue's rate limit, not the chain count, then sets the pace.
 */
const assumedRoundTripSeconds = 0.5;
const maxConcurrency = 32;
/**
 * Slices per chain: attempts are seldom spread evenly over a window, so the window is cut finer than the
 * chains and a chain that finishes a thin slice takes the next one, rather than one thick slice running alone
 * at the end.
 */
const slicesPerChain = 4;

/** Cuts [from, to) into abutting half-open slices of equal length, whole milliseconds, none empty. */
export function planSlices(window: Window, requestsPerSecond: number): SlicePlan {
  const concurrency = Math.min(
    maxConcurrency,
    Math.max(2, Math.ceil(requestsPerSecond * assumedRoundTripSeconds)),
  );
  const start = Date.parse(window.from);
  const span = Date.parse(window.to) - start;
  const count = Math.max(1, Math.min(concurrency * slicesPerChain, span));
  const boundary = (index: number) =>
    index === 0
      ? window.from
      : index === count
        ? window.to
        : new Date(start + Math.floor((span * index) / count)).toISOString();
  const slices = Array.from({ length: count }, (_, index) => ({
    from: boundary(index),
    to: boundary(index + 1),
  }));
  return { slices, concurrency: Math.min(concurrency, count) };
}

/**
 * Pages every slice of the plan in a child workflow of its own, `concurrency` at a time, adding each slice's
 * summary to `summary` as it completes. The bank's window is half-open, so an attempt at a boundary belongs
 * to the slice that starts there and to no other.
 */
export async function syncInSlices(
  window: Window,
  input: AttemptsSyncInput,
  plan: SlicePlan,
  summary: AttemptsSyncSummary,
  onSlice: () => void,
  deliveries: string,
): Promise<void> {
  let next = 0;
  const chain = async () => {
    for (let index = next++; index < plan.slices.length; index = next++) {
      const slice = plan.slices[index]!;
      const result = await executeChild(syncAttemptsSlice, {
        workflowId: workflowIds.attemptsSyncSlice(window, slice),
        args: [
          {
            ...slice,
            pageSize: input.pageSize,
            pagesPerRun: input.pagesPerRun,
            deliveries,
          },
        ],
      });
      addSlice(summary, result);
      onSlice();
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, chain));
}

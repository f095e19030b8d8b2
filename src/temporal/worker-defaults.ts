import v8 from 'node:v8';

const MiB = 2 ** 20;

/**
 * Heap a cached workflow is allowed, MiB: about three times what one holds between tasks
 * (docs/performance.md), for the history and payloads it holds while a task runs.
 */
export const heapMibPerCachedWorkflow = 1;

/**
 * The share of the heap cached workflows may fill: the rest is the isolate's own, replays' and uncollected
 * garbage.
 */
export const cachedWorkflowsHeapShare = 0.5;

/** The bounds of a sized cache: the SDK's own floor, and the most TEMPORAL_MAX_CACHED_WORKFLOWS accepts. */
export const cachedWorkflowsBounds = { min: 10, max: 10_000 } as const;

/**
 * Workflows a worker caches when TEMPORAL_MAX_CACHED_WORKFLOWS is unset, sized from the V8 heap limit: the
 * SDK runs every workflow in one worker thread whose isolate gets the same limit as the main thread's (node's
 * `--max-old-space-size`, or what V8 derives from the machine's memory), so the limit is what the cache lives
 * in.
 */
export function cachedWorkflowsForHeap(heapLimitBytes = v8.getHeapStatistics().heap_size_limit): number {
  const sized = Math.floor(((heapLimitBytes / MiB) * cachedWorkflowsHeapShare) / heapMibPerCachedWorkflow);
  return Math.min(cachedWorkflowsBounds.max, Math.max(cachedWorkflowsBounds.min, sized));
}

/**
 * How long a workflow task waits on the queue of the worker that has the workflow cached before any worker
 * may take it from the shared queue (the SDK's default is 10 s). A worker that dies without shutting down
 * leaves its workflows' next tasks on its own queue for this long; a live worker takes its own within
 * milliseconds, and a task that does move costs one replay elsewhere (docs/decisions.md).
 */
export const stickyQueueScheduleToStartTimeout = '3 seconds';

/**
 * How long a worker told to stop (SIGTERM, Ctrl-C) lets the activities it runs finish when
 * WORKER_SHUTDOWN_GRACE_SECONDS is unset: the longest single call an activity makes, a merchant
 * notification's POST (20 s before it counts as failed) or a bank call (BANK_TIMEOUT_MS, at most 20 s), with
 * room to report the result. An activity cut short is tried again, and a POST cut short may have reached the
 * merchant: sent twice.
 */
export const defaultShutdownGraceSeconds = 30;

/**
 * The most WORKER_SHUTDOWN_GRACE_SECONDS accepts: a value in milliseconds by mistake is refused, not waited
 * out.
 */
export const maxShutdownGraceSeconds = 3_600;

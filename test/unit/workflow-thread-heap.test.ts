import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startupFlagMb, withWorkflowThreadHeap } from '../../src/temporal/workflow-thread-heap.js';

const MiB = 2 ** 20;

/** The heap limit a new worker thread's isolate reports. */
function threadHeapLimitMb(): Promise<number> {
  const thread = new Worker(
    "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit)",
    { eval: true },
  );
  return new Promise<number>((resolve, reject) => {
    thread.once('message', (limit: number) => resolve(limit / MiB));
    thread.once('error', reject);
  }).finally(() => thread.terminate());
}

describe("the workflow thread's heap", () => {
  it('defaults to 64 MB plus 1 MB per cached workflow and 2 MB semi-spaces, each configurable', () => {
    const heap = (env: Record<string, string>) =>
      loadConfig({ BANKFLOW_ENV: 'development', ...env }).temporal.workflowThreadHeap;
    expect(heap({})).toEqual({ oldSpaceMb: 114, semiSpaceMb: 2 });
    expect(heap({ TEMPORAL_MAX_CACHED_WORKFLOWS: '500' })).toEqual({ oldSpaceMb: 564, semiSpaceMb: 2 });
    expect(heap({ WORKFLOW_THREAD_HEAP_MB: '300', WORKFLOW_THREAD_SEMI_SPACE_MB: '8' })).toEqual({
      oldSpaceMb: 300,
      semiSpaceMb: 8,
    });
    expect(() => heap({ WORKFLOW_THREAD_HEAP_MB: '8' })).toThrow(ConfigError);
    expect(() => heap({ WORKFLOW_THREAD_HEAP_MB: '8' })).toThrow(/WORKFLOW_THREAD_HEAP_MB: .*32/);
    expect(() => heap({ WORKFLOW_THREAD_SEMI_SPACE_MB: '0' })).toThrow(/WORKFLOW_THREAD_SEMI_SPACE_MB: /);
  });

  it('reads what the process started with, the last value winning, node arguments after NODE_OPTIONS', () => {
    const flag = '--max-old-space-size';
    expect(startupFlagMb(flag, '', [])).toBeUndefined();
    expect(startupFlagMb(flag, '--max-old-space-size=160', [])).toBe(160);
    expect(startupFlagMb(flag, '--max_old_space_size=160 --inspect', ['--max-old-space-size=96'])).toBe(96);
    expect(startupFlagMb(flag, '--max-semi-space-size=4', [])).toBeUndefined();
  });

  it('caps the isolates started inside it, and only those', async () => {
    const before = await threadHeapLimitMb();
    const inside = await withWorkflowThreadHeap({ oldSpaceMb: 64, semiSpaceMb: 1 }, threadHeapLimitMb);
    const after = await threadHeapLimitMb();
    // The old generation's cap plus the young generation's (three semi-spaces' worth in V8's reckoning).
    expect(inside).toBeGreaterThanOrEqual(64);
    expect(inside).toBeLessThan(72);
    expect(after).toBe(before);
    expect(v8.getHeapStatistics().heap_size_limit / MiB).toBeGreaterThan(72);
  });
});

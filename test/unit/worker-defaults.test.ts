import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { loadConfig } from '../../src/config.js';
import { cachedWorkflowsForHeap, defaultShutdownGraceSeconds } from '../../src/temporal/worker-defaults.js';
import { problemsOf } from '../helpers/config-env.js';

const MiB = 2 ** 20;

const cacheOf = (env: Record<string, string>) =>
  loadConfig({ BANKFLOW_ENV: 'development', ...env }).temporal.maxCachedWorkflows;

/**
 * What a fresh process started with `nodeArgs` reports: its heap limits, and the cache bankflow sizes from
 * them.
 */
function sizedIn(nodeArgs: string[]): { mainMb: number; threadMb: number; cache: number } {
  const script = `
    import v8 from 'node:v8';
    import { Worker } from 'node:worker_threads';
    import { loadConfig } from './src/config.ts';
    const thread = new Worker(
      // --input-type=module makes the thread's code a module too.
      "import { parentPort } from 'node:worker_threads'; import v8 from 'node:v8'; parentPort.postMessage(v8.getHeapStatistics().heap_size_limit);",
      { eval: true },
    );
    const threadLimit = await new Promise((resolve) => thread.once('message', resolve));
    await thread.terminate();
    process.stdout.write(JSON.stringify({
      mainMb: v8.getHeapStatistics().heap_size_limit / 2 ** 20,
      threadMb: threadLimit / 2 ** 20,
      cache: loadConfig({ BANKFLOW_ENV: 'development' }).temporal.maxCachedWorkflows,
    }));`;
  return JSON.parse(
    execFileSync(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    }),
  ) as { mainMb: number; threadMb: number; cache: number };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mjs|js)$/.test(file))
    .map((file) => path.join(dir, file));
}

describe("a worker's production defaults", () => {
  it('sizes the workflow cache from the V8 heap limit: 1 MB a workflow in half the heap, 10 to 10,000', () => {
    expect(cachedWorkflowsForHeap(134 * MiB)).toBe(67);
    expect(cachedWorkflowsForHeap(4_144 * MiB)).toBe(2_072);
    expect(cachedWorkflowsForHeap(16 * MiB)).toBe(10);
    expect(cachedWorkflowsForHeap(64 * 1024 * MiB)).toBe(10_000);
    expect(cacheOf({})).toBe(cachedWorkflowsForHeap(v8.getHeapStatistics().heap_size_limit));
    expect(cacheOf({ TEMPORAL_MAX_CACHED_WORKFLOWS: '50' })).toBe(50);
    expect(cacheOf({ TEMPORAL_MAX_CACHED_WORKFLOWS: '0' })).toBe(0);
    expect(() => cacheOf({ TEMPORAL_MAX_CACHED_WORKFLOWS: '1' })).toThrow(/TEMPORAL_MAX_CACHED_WORKFLOWS: /);
  });

  it('lets running activities finish for 30 s when stopped, WORKER_SHUTDOWN_GRACE_SECONDS saying otherwise', () => {
    const graceOf = (env: Record<string, string>) =>
      loadConfig({ BANKFLOW_ENV: 'development', ...env }).temporal.shutdownGraceMs;
    expect(defaultShutdownGraceSeconds).toBe(30);
    expect(graceOf({})).toBe(30_000);
    expect(graceOf({ WORKER_SHUTDOWN_GRACE_SECONDS: '90' })).toBe(90_000);
    expect(graceOf({ WORKER_SHUTDOWN_GRACE_SECONDS: '0' })).toBe(0);
    const refused = (value: string) =>
      problemsOf({ BANKFLOW_ENV: 'development', WORKER_SHUTDOWN_GRACE_SECONDS: value });
    expect(refused('30000')).toMatch(
      /WORKER_SHUTDOWN_GRACE_SECONDS: must be at most 3600 \(an hour\); it counts seconds, not milliseconds/,
    );
    expect(refused('-5')).toMatch(
      /WORKER_SHUTDOWN_GRACE_SECONDS: must be a number of seconds \(e.g. 30\), or 0 to cancel running activities at once \(got "-5"\)/,
    );
    expect(refused('2.5')).toMatch(
      /WORKER_SHUTDOWN_GRACE_SECONDS: must be a whole number of seconds \(e.g. 30\)/,
    );
    expect(refused('30s')).toMatch(/WORKER_SHUTDOWN_GRACE_SECONDS: must be a number of seconds \(e.g. 30\)/);
  });

  it("follows node's --max-old-space-size, which caps the workflow thread's heap as well as the main one's", () => {
    const small = sizedIn(['--max-old-space-size=128', '--max-semi-space-size=2']);
    expect(small.threadMb).toBe(small.mainMb);
    expect(small.mainMb).toBeLessThan(140);
    expect(small.cache).toBe(cachedWorkflowsForHeap(small.mainMb * MiB));
    const large = sizedIn(['--max-old-space-size=1024']);
    expect(large.threadMb).toBe(large.mainMb);
    expect(large.cache).toBeGreaterThan(small.cache * 7);
  }, 60_000);

  it('changes no V8 flag at run time: heaps are sized by the arguments node starts with', () => {
    const files = ['src', 'bin'].flatMap((dir) => sourceFiles(path.resolve(dir)));
    expect(files.length).toBeGreaterThan(50);
    const setting = files.filter((file) => readFileSync(file, 'utf8').includes('setFlagsFromString'));
    expect(setting).toEqual([]);
  });
});

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { outputOf, type CliResult } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tempDir = tempDirs('bankflow-bench-');
const benchmarks = ['cost', 'ingest', 'journey', 'sync', 'footprint', 'queues', 'polls'];

function runBench(args: string[]): Promise<CliResult> {
  return outputOf(spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args]));
}

/**
 * `npm run bench -- --quick`: every benchmark at a tiny size, so the benchmark code cannot rot between runs.
 */
describe('benchmarks, smoke run', () => {
  it('runs every benchmark, prints each target as met or missed and writes its results', async () => {
    const dir = tempDir();
    const run = await runBench(['--quick', '--rounds', '1', '--results-dir', dir]);
    // On failure the bench's own error shows.
    expect(run.code === 0 ? 'exit 0' : `exit ${run.code}: ${run.stderr.slice(-3_000)}`).toBe('exit 0');

    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const results = JSON.parse(readFileSync(path.join(dir, files[0] ?? ''), 'utf8')) as Record<
      string,
      unknown
    > & {
      targets: { target: string; measured: string; met: boolean }[];
    };
    for (const name of benchmarks) expect(results).toHaveProperty(name);
    expect(results.targets.length).toBeGreaterThanOrEqual(benchmarks.length);
    for (const target of results.targets) {
      expect(target).toEqual({
        target: expect.any(String),
        measured: expect.any(String),
        met: expect.any(Boolean),
      });
      const row = run.stdout.split('\n').find((line) => line.includes(`| ${target.target} `));
      expect(row).toMatch(target.met ? /\| met +\|$/ : /\| MISSED +\|$/);
    }
    // A payment through the merchant API costs Temporal no more than through the starter, at any size.
    expect(results.targets).toContainEqual(
      expect.objectContaining({
        target: 'merchant HTTP API: executions and actions per payment <= the starter path (medians)',
        met: true,
      }),
    );
  }, 900_000);

  it('refuses an unknown benchmark, naming it', async () => {
    const run = await runBench(['--quick', '--only', 'journey,latency']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch('--only: unknown benchmark latency');
  });
});

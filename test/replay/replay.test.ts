import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import * as workflows from '../../src/workflows/index.js';
import { bankflowDataConverter } from '../../src/temporal/data-converter.js';
import { encryptionKeys, testLogger } from '../helpers/stack.js';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import { workflowSpanSinks } from '../../src/tracing/temporal.js';
import { replayHistoriesDir } from '../helpers/replay.js';
import { testEnvKeys } from '../setup/shared.js';

// One set, recorded from the current code: a pinned run is never replayed by other code
// (docs/upgrading-workflows.md).
const files = readdirSync(replayHistoriesDir).filter((file) => file.endsWith('.json'));

function workflowTypeOf(history: ReturnType<typeof historyFromJSON>): string {
  return history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? '';
}

describe('recorded histories replay against the current workflow code', () => {
  const histories = files.map((file) => ({
    workflowId: file.replace(/\.json$/, ''),
    history: historyFromJSON(JSON.parse(readFileSync(path.join(replayHistoriesDir, file), 'utf8'))),
  }));

  beforeAll(() => installTemporalRuntime(testLogger()));

  it('has a recorded history for every workflow type', () => {
    const recorded = new Set(histories.map(({ history }) => workflowTypeOf(history)));
    expect([...recorded].sort()).toEqual(expect.arrayContaining(Object.keys(workflows).sort()));
  });

  // A worker that traces runs the traced bundle (src/workflow-bundle.ts); every history must replay on both.
  it.each([
    ['the bundle', testEnvKeys.bundle],
    ['the traced bundle', testEnvKeys.tracedBundle],
  ])('replays every history without a nondeterminism error on %s', async (_name, bundleKey) => {
    const results = Worker.runReplayHistories(
      {
        workflowBundle: { codePath: process.env[bundleKey] ?? '' },
        dataConverter: bankflowDataConverter(encryptionKeys),
        // A traced run hands its spans to this sink, replay or not; the worker registers it the same way.
        sinks: workflowSpanSinks(undefined),
      },
      histories,
    );
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of results) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(histories.length);
  });
});

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { findTemporalCli } from '../../src/temporal/cli-binary.js';
import { testEnvKeys } from '../setup/shared.js';

export const replayHistoriesDir = path.resolve('test/replay/histories');

/**
 * With BANKFLOW_RECORD_HISTORIES=1 (`npm run record-histories`), keeps the history of a workflow an
 * integration test just ran (its latest run, unless `runId` names one), for the replay test to prove the
 * current code still replays it deterministically. The Temporal CLI writes it in the same JSON form `temporal
 * workflow show --output json` gives operators.
 */
export async function recordHistory(
  client: Client,
  workflowId: string,
  name: string,
  runId?: string,
): Promise<void> {
  if (process.env.BANKFLOW_RECORD_HISTORIES !== '1') return;
  const cli = await findTemporalCli({
    explicitPath: process.env.TEMPORAL_CLI,
    pathEnv: process.env.PATH,
    allowBuild: false,
  });
  const shown = spawnSync(
    cli,
    [
      'workflow',
      'show',
      '--workflow-id',
      workflowId,
      ...(runId ? ['--run-id', runId] : []),
      '--address',
      process.env[testEnvKeys.address] ?? '',
      '--namespace',
      client.options.namespace,
      '--output',
      'json',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (shown.status !== 0) throw new Error(`temporal workflow show ${workflowId} failed: ${shown.stderr}`);
  writeFileSync(path.join(replayHistoriesDir, `${name}.json`), shown.stdout);
}

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';

export const replayHistoriesDir = path.resolve('test/replay/histories');

/**
 * With BANKFLOW_RECORD_HISTORIES=1 (`npm run record-histories`), keeps the history of a workflow an integration
 * test just ran, for the replay test to prove the current code still replays it deterministically.
 */
export async function recordHistory(client: Client, workflowId: string, name: string): Promise<void> {
  if (process.env.BANKFLOW_RECORD_HISTORIES !== '1') return;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  writeFileSync(path.join(replayHistoriesDir, `${name}.json`), `${historyToJSON(history)}\n`);
}

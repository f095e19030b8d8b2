import path from 'node:path';
import type { MetricsSnapshot } from '../contract/jobs.js';
import { windowFileBase, writeTextAtomically } from './files.js';

/** Where metrics snapshots are kept; answers where this one went. */
export interface MetricsSnapshotSink {
  store(snapshot: MetricsSnapshot, takenAt: Date): Promise<string>;
}

/**
 * One JSON file per workflow run, `metrics-snapshot_<from>_<to>_<run id>.json`: a snapshot is a reading taken at
 * a moment, so a second run over the same window keeps its own reading instead of replacing the first.
 */
export function fileSnapshotSink(dir: string): MetricsSnapshotSink {
  return {
    async store(snapshot, takenAt) {
      const file = path.join(dir, `${windowFileBase(snapshot.job, snapshot.window)}_${snapshot.runId}.json`);
      const content = {
        job: snapshot.job,
        window: snapshot.window,
        taken_at: takenAt.toISOString(),
        run_id: snapshot.runId,
        accounts: snapshot.accounts.map((account) => ({
          bank_account_id: account.bankAccountId,
          ...(account.metrics ?? {}),
          error: account.error,
        })),
      };
      await writeTextAtomically(file, `${JSON.stringify(content, null, 2)}\n`);
      return file;
    },
  };
}

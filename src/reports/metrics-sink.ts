import type { MetricsSnapshot } from '../contract/jobs.js';
import { windowFileBase } from './files.js';
import type { ReportSink } from './sink/index.js';

/**
 * Stores a snapshot as one JSON object per workflow run, `metrics-snapshot_<from>_<to>_<run id>.json`, and
 * answers where it went: a snapshot is a reading taken at a moment, so a second run over the same window
 * keeps its own reading instead of replacing the first.
 */
export async function storeMetricsSnapshot(
  sink: ReportSink,
  snapshot: MetricsSnapshot,
  takenAt: Date,
): Promise<string> {
  const key = `${windowFileBase(snapshot.job, snapshot.window)}_${snapshot.runId}.json`;
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
  await sink.put(key, `${JSON.stringify(content, null, 2)}\n`);
  return sink.locate(key);
}

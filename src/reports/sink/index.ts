import type { JobsConfig } from '../../config/jobs.js';
import type { S3StoreConfig } from '../../config/report-store.js';
import { directorySink } from './directory-sink.js';
import type { ReportSink } from './report-sink.js';
import { s3KeyNaming } from './s3-keys.js';

export type { ChunkWriter, ReportSink } from './report-sink.js';

/**
 * The S3 sink, its SDK loaded on first use: a worker keeping reports in a directory never pays for loading
 * `@aws-sdk/client-s3` (about a third of a second and its memory).
 */
function lazyS3Sink(config: S3StoreConfig): ReportSink {
  let loading: Promise<ReportSink> | undefined;
  const sink = () => (loading ??= import('./s3-sink.js').then((module) => module.s3Sink(config)));
  return {
    locate: s3KeyNaming(config).locate,
    put: async (key, text) => (await sink()).put(key, text),
    write: async (key, produce) => (await sink()).write(key, produce),
    get: async (key) => (await sink()).get(key),
    list: async (prefix) => (await sink()).list(prefix),
    deletePrefix: async (prefix) => (await sink()).deletePrefix(prefix),
  };
}

/** The sink the configuration names: the S3 bucket when REPORTS_STORE=s3, REPORTS_DIR otherwise. */
export function reportSinkFor(jobs: Pick<JobsConfig, 'reportsDir' | 's3'>): ReportSink {
  return jobs.s3 ? lazyS3Sink(jobs.s3) : directorySink(jobs.reportsDir);
}

import type { JobsConfig } from '../../config/jobs.js';
import { directorySink } from './directory-sink.js';
import type { ReportSink } from './report-sink.js';
import { s3Sink } from './s3-sink.js';

export type { ChunkWriter, ReportSink } from './report-sink.js';

/** The sink the configuration names: the S3 bucket when REPORTS_STORE=s3, REPORTS_DIR otherwise. */
export function reportSinkFor(jobs: Pick<JobsConfig, 'reportsDir' | 's3'>): ReportSink {
  return jobs.s3 ? s3Sink(jobs.s3) : directorySink(jobs.reportsDir);
}

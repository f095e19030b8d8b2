import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { flag, httpUrl, optionalText, type Parsed } from './fields.js';

/**
 * Where reports, their staged pages and metrics snapshots are kept. The directory (REPORTS_DIR) is the
 * embedded default; a fleet on several hosts points every worker at one S3-compatible bucket instead, so a
 * page staged by one worker is read by whichever worker writes the report.
 */
export const reportStoreVariables = {
  /** `directory` (REPORTS_DIR) or `s3` (the REPORTS_S3_* variables). */
  REPORTS_STORE: z.enum(['directory', 's3']).default('directory'),
  REPORTS_S3_BUCKET: optionalText,
  /** Prepended to every object key, e.g. `bankflow/reports/`; empty for the bucket's root. */
  REPORTS_S3_PREFIX: z
    .string()
    .trim()
    .default('')
    .refine((value) => !value.startsWith('/'), { message: 'must not start with /' }),
  /** An S3-compatible server's URL (SeaweedFS, MinIO, Ceph); unset for AWS S3 in REPORTS_S3_REGION. */
  REPORTS_S3_ENDPOINT: httpUrl.optional(),
  REPORTS_S3_REGION: optionalText,
  REPORTS_S3_ACCESS_KEY_ID: optionalText,
  REPORTS_S3_SECRET_ACCESS_KEY: secret(optionalText),
  /**
   * `bucket` in the path (`https://host/bucket/key`) rather than the host name; most S3-compatible servers
   * need it.
   */
  REPORTS_S3_FORCE_PATH_STYLE: flag(false),
};

export type ReportStoreEnv = Parsed<typeof reportStoreVariables>;

/** An S3-compatible bucket holding the reports; credentials unset means the AWS SDK's default chain. */
export interface S3StoreConfig {
  bucket: string;
  prefix: string;
  endpoint: string | undefined;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

type Problem = { variable: string; message: string };

/** What no single variable shows, refused in every environment: a store that cannot work at all. */
export function reportStoreProblems(env: ReportStoreEnv): Problem[] {
  const problems: Problem[] = [];
  if (env.REPORTS_STORE === 's3' && env.REPORTS_S3_BUCKET === undefined) {
    problems.push({ variable: 'REPORTS_S3_BUCKET', message: 'is required when REPORTS_STORE=s3' });
  }
  if ((env.REPORTS_S3_ACCESS_KEY_ID === undefined) !== (env.REPORTS_S3_SECRET_ACCESS_KEY === undefined)) {
    const missing =
      env.REPORTS_S3_ACCESS_KEY_ID === undefined
        ? 'REPORTS_S3_ACCESS_KEY_ID'
        : 'REPORTS_S3_SECRET_ACCESS_KEY';
    problems.push({
      variable: missing,
      message: 'is required with the other of REPORTS_S3_ACCESS_KEY_ID and REPORTS_S3_SECRET_ACCESS_KEY',
    });
  }
  return problems;
}

/** The S3 store, or undefined for the directory. Called after reportStoreProblems found none. */
export function s3StoreConfig(env: ReportStoreEnv): S3StoreConfig | undefined {
  if (env.REPORTS_STORE !== 's3' || env.REPORTS_S3_BUCKET === undefined) return undefined;
  return {
    bucket: env.REPORTS_S3_BUCKET,
    prefix: env.REPORTS_S3_PREFIX,
    endpoint: env.REPORTS_S3_ENDPOINT,
    region: env.REPORTS_S3_REGION ?? 'us-east-1',
    credentials:
      env.REPORTS_S3_ACCESS_KEY_ID !== undefined && env.REPORTS_S3_SECRET_ACCESS_KEY !== undefined
        ? { accessKeyId: env.REPORTS_S3_ACCESS_KEY_ID, secretAccessKey: env.REPORTS_S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: env.REPORTS_S3_FORCE_PATH_STYLE,
  };
}

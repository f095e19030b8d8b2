import path from 'node:path';
import { z } from 'zod';
import { uuid } from '../bank/schemas/common.js';
import { optionalText, type Parsed } from './fields.js';
import type { GeneralEnv } from './general.js';
import { s3StoreConfig, type ReportStoreEnv, type S3StoreConfig } from './report-store.js';

/** A cron expression as Temporal Schedules read it: 5 to 7 fields, or a shortcut such as `@hourly`. */
const cron = (fallback: string) =>
  z
    .string()
    .trim()
    .default(fallback)
    .refine((value) => /^@\w+/.test(value) || /^(\S+\s+){4,6}\S+$/.test(value), {
      message: 'must be a cron expression such as "0 6 * * *" (minute hour day-of-month month day-of-week)',
    });
const timeZone = z
  .string()
  .trim()
  .default('America/Sao_Paulo')
  .refine(
    (value) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: value });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an IANA time zone such as America/Sao_Paulo or UTC' },
  );
/** Comma-separated uuids; empty or unset is an empty list. */
const uuidList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const ids = (value ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const bad = ids.find((id) => !uuid.safeParse(id).success);
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(bad)} is not a uuid (8-4-4-4-12 hex digits)`,
      });
      return z.NEVER;
    }
    return ids;
  });

/** The scheduled jobs: when the Temporal Schedules fire, and where their reports and snapshots go. */
export const jobVariables = {
  /** Where report and metrics snapshot files go; default `<BANKFLOW_DATA_DIR>/reports`. */
  REPORTS_DIR: optionalText,
  METRICS_BANK_ACCOUNT_IDS: uuidList,
  /** Prefixes every schedule id, so several deployments (or test runs) share a namespace. */
  SCHEDULE_ID_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]*$/, 'may hold only letters, digits and . _ -')
    .default('bankflow-'),
  SCHEDULE_TIME_ZONE: timeZone,
  SCHEDULE_ATTEMPTS_SYNC_CRON: cron('*/15 * * * *'),
  SCHEDULE_METRICS_CRON: cron('0 * * * *'),
  SCHEDULE_REPORTS_CRON: cron('0 6 * * *'),
};

export type JobEnv = Parsed<typeof jobVariables>;

/** What the scheduled jobs need on the worker: where files go and which accounts metrics snapshots read. */
export interface JobsConfig {
  /** Where reports go when no S3 store is configured. */
  reportsDir: string;
  metricsBankAccountIds: string[];
  /** The bucket every worker stages and writes reports in (REPORTS_STORE=s3); the directory otherwise. */
  s3?: S3StoreConfig;
}

/** How the Temporal Schedules are declared (src/schedules/declarations.ts). */
export interface SchedulesConfig {
  idPrefix: string;
  timeZone: string;
  cron: { attemptsSync: string; metrics: string; reports: string };
}

export function jobsConfig(env: JobEnv & ReportStoreEnv & Pick<GeneralEnv, 'BANKFLOW_DATA_DIR'>): JobsConfig {
  const s3 = s3StoreConfig(env);
  return {
    reportsDir: env.REPORTS_DIR ?? path.join(env.BANKFLOW_DATA_DIR, 'reports'),
    metricsBankAccountIds: env.METRICS_BANK_ACCOUNT_IDS,
    ...(s3 ? { s3 } : {}),
  };
}

export function schedulesConfig(env: JobEnv): SchedulesConfig {
  return {
    idPrefix: env.SCHEDULE_ID_PREFIX,
    timeZone: env.SCHEDULE_TIME_ZONE,
    cron: {
      attemptsSync: env.SCHEDULE_ATTEMPTS_SYNC_CRON,
      metrics: env.SCHEDULE_METRICS_CRON,
      reports: env.SCHEDULE_REPORTS_CRON,
    },
  };
}

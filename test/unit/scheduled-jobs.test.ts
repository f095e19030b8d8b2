import { ConfigError, loadConfig } from '../../src/config.js';
import { problemsOf, productionEnv } from '../helpers/config-env.js';
import { csvField, csvLine } from '../../src/reports/csv.js';
import { fileInstant, windowFileBase } from '../../src/reports/files.js';
import {
  addToTotals,
  centsToReais,
  emptyTotals,
  mergeTotals,
  totalsInFile,
} from '../../src/reports/totals.js';
import {
  findDeclaration,
  scheduleDeclarations,
  scheduledWorkflowId,
} from '../../src/schedules/declarations.js';
import {
  capWindow,
  coveredAfter,
  coveredUntilOf,
  scheduledWindow,
} from '../../src/contract/schedule-coverage.js';

describe('scheduled jobs configuration', () => {
  it('defaults: attempts every 15 minutes, metrics hourly, reports daily at 06:00 in Sao Paulo', () => {
    const config = loadConfig({ BANKFLOW_ENV: 'development', BANKFLOW_DATA_DIR: '/var/lib/bankflow' });
    expect(config.jobs).toEqual({ reportsDir: '/var/lib/bankflow/reports', metricsBankAccountIds: [] });
    expect(config.schedules).toEqual({
      idPrefix: 'bankflow-',
      timeZone: 'America/Sao_Paulo',
      cron: { attemptsSync: '*/15 * * * *', metrics: '0 * * * *', reports: '0 6 * * *' },
    });
    expect(
      scheduleDeclarations(config.schedules).map((d) => [d.scheduleId, d.workflowType, d.cron, d.overlap]),
    ).toEqual([
      ['bankflow-attempts-sync', 'syncRecurrenceAttempts', '*/15 * * * *', 'SKIP'],
      ['bankflow-refund-report', 'refundReport', '0 6 * * *', 'SKIP'],
      ['bankflow-transfer-report', 'transferReport', '0 6 * * *', 'SKIP'],
      ['bankflow-metrics-snapshot', 'metricsSnapshot', '0 * * * *', 'SKIP'],
    ]);
  });

  it('reads every setting from its variable', () => {
    const config = loadConfig({
      BANKFLOW_ENV: 'development',
      REPORTS_DIR: '/srv/reports',
      METRICS_BANK_ACCOUNT_IDS:
        ' 6f1c0a52-7d1e-4b8a-9c3d-2e4f5a6b7c8d, 0f8b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d ,',
      SCHEDULE_ID_PREFIX: 'acme.',
      SCHEDULE_TIME_ZONE: 'UTC',
      SCHEDULE_ATTEMPTS_SYNC_CRON: '*/5 * * * *',
      SCHEDULE_METRICS_CRON: '@hourly',
      SCHEDULE_REPORTS_CRON: '0 7 * * 1-5',
    });
    expect(config.jobs).toEqual({
      reportsDir: '/srv/reports',
      metricsBankAccountIds: ['6f1c0a52-7d1e-4b8a-9c3d-2e4f5a6b7c8d', '0f8b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d'],
    });
    const declarations = scheduleDeclarations(config.schedules);
    expect(declarations.map((d) => [d.scheduleId, d.cron, d.timeZone])).toEqual([
      ['acme.attempts-sync', '*/5 * * * *', 'UTC'],
      ['acme.refund-report', '0 7 * * 1-5', 'UTC'],
      ['acme.transfer-report', '0 7 * * 1-5', 'UTC'],
      ['acme.metrics-snapshot', '@hourly', 'UTC'],
    ]);
    expect(findDeclaration(declarations, 'refund-report')?.scheduleId).toBe('acme.refund-report');
    expect(findDeclaration(declarations, 'acme.metrics-snapshot')?.job).toBe('metrics-snapshot');
    expect(findDeclaration(declarations, 'bankflow-refund-report')).toBeUndefined();
  });

  it('names the variable and the bad value', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ BANKFLOW_ENV: 'development', ...env });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ METRICS_BANK_ACCOUNT_IDS: '6f1c0a52-7d1e-4b8a-9c3d-2e4f5a6b7c8d,acct-2' })).toEqual([
      {
        variable: 'METRICS_BANK_ACCOUNT_IDS',
        reason: expect.stringMatching(/^"acct-2" is not a uuid/),
      },
    ]);
    expect(problems({ SCHEDULE_TIME_ZONE: 'Sao Paulo' })[0]?.variable).toBe('SCHEDULE_TIME_ZONE');
    expect(problems({ SCHEDULE_METRICS_CRON: '0 *' })[0]).toEqual({
      variable: 'SCHEDULE_METRICS_CRON',
      reason: expect.stringMatching(/must be a cron expression .*\(got "0 \*"\)$/),
    });
    expect(problems({ SCHEDULE_ID_PREFIX: 'a/b' })[0]?.variable).toBe('SCHEDULE_ID_PREFIX');
  });
});

describe('the report store', () => {
  const s3 = {
    REPORTS_STORE: 's3',
    REPORTS_S3_BUCKET: 'acme-reports',
    REPORTS_S3_PREFIX: 'bankflow/',
    REPORTS_S3_ENDPOINT: 'https://s3.acme.example',
    REPORTS_S3_REGION: 'sa-east-1',
    REPORTS_S3_ACCESS_KEY_ID: 'acme-reports-key',
    REPORTS_S3_SECRET_ACCESS_KEY: 'acme-reports-secret-key-0123456789abcdef',
    REPORTS_S3_FORCE_PATH_STYLE: 'true',
  };
  const temporal = { TEMPORAL_ADDRESS: 'temporal.acme.example:7233', TEMPORAL_TLS: 'true' };

  it('is the directory unless REPORTS_STORE=s3, which reads the bucket from its variables', () => {
    expect(loadConfig({ BANKFLOW_ENV: 'development', BANKFLOW_DATA_DIR: '/d' }).jobs.s3).toBeUndefined();
    expect(loadConfig({ BANKFLOW_ENV: 'development', ...s3 }).jobs.s3).toEqual({
      bucket: 'acme-reports',
      prefix: 'bankflow/',
      endpoint: 'https://s3.acme.example',
      region: 'sa-east-1',
      credentials: {
        accessKeyId: 'acme-reports-key',
        secretAccessKey: 'acme-reports-secret-key-0123456789abcdef',
      },
      forcePathStyle: true,
    });
    expect(loadConfig({ ...productionEnv(), ...temporal, ...s3 }).jobs.s3?.bucket).toBe('acme-reports');
  });

  it('refuses a bucket it cannot reach, naming the variable, and never prints the secret key', () => {
    expect(problemsOf({ BANKFLOW_ENV: 'development', REPORTS_STORE: 's3' })).toMatch(
      /REPORTS_S3_BUCKET: is required when REPORTS_STORE=s3/,
    );
    const halfKey = problemsOf({
      BANKFLOW_ENV: 'development',
      REPORTS_STORE: 's3',
      REPORTS_S3_BUCKET: 'b',
      REPORTS_S3_SECRET_ACCESS_KEY: s3.REPORTS_S3_SECRET_ACCESS_KEY,
    });
    expect(halfKey).toMatch(/REPORTS_S3_ACCESS_KEY_ID: is required with the other/);
    expect(halfKey).not.toContain(s3.REPORTS_S3_SECRET_ACCESS_KEY);
    expect(problemsOf({ BANKFLOW_ENV: 'development', REPORTS_STORE: 'nfs' })).toMatch(/REPORTS_STORE:/);
    expect(problemsOf({ BANKFLOW_ENV: 'development', REPORTS_S3_PREFIX: '/abs' })).toMatch(
      /REPORTS_S3_PREFIX: must not start with \//,
    );
  });

  it('refuses an incomplete or plaintext S3 store in production, each variable by name', () => {
    const incomplete = problemsOf({
      ...productionEnv(),
      ...temporal,
      REPORTS_STORE: 's3',
      REPORTS_S3_BUCKET: 'acme-reports',
      REPORTS_S3_ENDPOINT: 'http://s3.internal:8333',
    });
    for (const variable of [
      'REPORTS_S3_REGION',
      'REPORTS_S3_ACCESS_KEY_ID',
      'REPORTS_S3_SECRET_ACCESS_KEY',
    ]) {
      expect(incomplete).toMatch(
        new RegExp(`${variable}: is required when REPORTS_STORE=s3 and BANKFLOW_ENV=production`),
      );
    }
    expect(incomplete).toMatch(/REPORTS_S3_ENDPOINT: must be an https:\/\/ URL when BANKFLOW_ENV=production/);
  });
});

describe('report building blocks', () => {
  it('quotes CSV fields only when needed and defuses formulas in text', () => {
    expect(csvLine(['plain', 12, null, undefined, ''])).toBe('plain,12,,,\r\n');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('-5')).toBe("'-5");
    expect(csvField(-5)).toBe('-5');
    expect(csvField('@SUM(A1), x')).toBe(`"'@SUM(A1), x"`);
  });

  it('sums cents per status and shows reais without floating-point drift', () => {
    let totals = emptyTotals();
    for (const [status, cents] of [
      ['settled', 10],
      ['settled', 20],
      ['failed', 1],
    ] as const) {
      totals = addToTotals(totals, status, cents);
    }
    const merged = mergeTotals(totals, addToTotals(emptyTotals(), 'created', 199_999_999_99));
    expect(totalsInFile(merged)).toEqual({
      count: 4,
      amount_cents: 199_999_999_99 + 31,
      amount_reais: '200000000.30',
      by_status: {
        created: { count: 1, amount_cents: 199_999_999_99, amount_reais: '199999999.99' },
        failed: { count: 1, amount_cents: 1, amount_reais: '0.01' },
        settled: { count: 2, amount_cents: 30, amount_reais: '0.30' },
      },
    });
    expect(centsToReais(0)).toBe('0.00');
    expect(centsToReais(-105)).toBe('-1.05');
  });

  it('names files and scheduled runs after the job and the instants', () => {
    expect(fileInstant('2026-11-21T09:00:00.000Z')).toBe('20261121T090000Z');
    expect(fileInstant('2026-11-21T09:00:00.250Z')).toBe('20261121T090000.250Z');
    expect(
      windowFileBase('refund-report', { from: '2026-11-20T09:00:00.000Z', to: '2026-11-21T09:00:00.000Z' }),
    ).toBe('refund-report_20261120T090000Z_20261121T090000Z');
    expect(scheduledWorkflowId('bankflow-refund-report', new Date('2026-11-21T09:00:00.000Z'))).toBe(
      'bankflow-refund-report-2026-11-21T09:00:00Z',
    );
  });
});

describe('the window of a scheduled run, from the last completed run', () => {
  const at = (hour: number) => new Date(Date.UTC(2026, 2, 2, hour)).toISOString();

  it('starts the first window ever at the previous scheduled time', () => {
    expect(scheduledWindow({ coveredUntil: undefined, scheduledAt: at(10), previous: at(9) })).toEqual({
      window: { from: at(9), to: at(10) },
      coveredUntil: at(9),
      catchingUp: false,
    });
  });

  it('starts where the covered time ends, so skipped, missed and failed times fall in the next window', () => {
    const next = scheduledWindow({ coveredUntil: at(6), scheduledAt: at(10), previous: at(9) });
    expect(next).toEqual({ window: { from: at(6), to: at(10) }, coveredUntil: at(6), catchingUp: true });
    expect(coveredAfter(next.coveredUntil, next.window)).toBe(at(10));
    expect(scheduledWindow({ coveredUntil: at(9), scheduledAt: at(10), previous: at(9) }).catchingUp).toBe(
      false,
    );
  });

  it('gives a covered time (a backfill, a re-run) its scheduled interval back, moving nothing', () => {
    const again = scheduledWindow({ coveredUntil: at(12), scheduledAt: at(11), previous: at(10) });
    expect(again).toEqual({ window: { from: at(10), to: at(11) }, coveredUntil: at(12), catchingUp: false });
    expect(coveredAfter(again.coveredUntil, again.window)).toBe(at(12));
  });

  it('caps a catching-up window at an end inside it, and only there', () => {
    const late = scheduledWindow({ coveredUntil: at(0), scheduledAt: at(20), previous: at(19) });
    expect(capWindow(late, at(6)).window).toEqual({ from: at(0), to: at(6) });
    expect(capWindow(late, at(20)).window).toEqual({ from: at(0), to: at(20) });
    expect(capWindow(late, at(0)).window).toEqual({ from: at(0), to: at(20) });
  });

  it('reads the covered time from a result, and nothing else', () => {
    expect(coveredUntilOf({ coveredUntil: at(3), window: { from: at(1), to: at(2) } })).toBe(at(3));
    expect(coveredUntilOf({ window: { from: at(1), to: at(2) } })).toBeUndefined();
    expect(coveredUntilOf({ from: at(1), to: at(2) })).toBeUndefined();
    expect(coveredUntilOf(undefined)).toBeUndefined();
    expect(coveredUntilOf({ coveredUntil: 'yesterday' })).toBeUndefined();
  });
});

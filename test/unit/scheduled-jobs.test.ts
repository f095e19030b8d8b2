import { ConfigError, loadConfig } from '../../src/config.js';
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

describe('scheduled jobs configuration', () => {
  it('defaults: attempts every 15 minutes, metrics hourly, reports daily at 06:00 in Sao Paulo', () => {
    const config = loadConfig({ BANKFLOW_DATA_DIR: '/var/lib/bankflow' });
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
        loadConfig(env);
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

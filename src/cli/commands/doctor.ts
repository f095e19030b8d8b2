import type { Command } from 'commander';
import { doctorRoleSchema, doctorRoles, type CheckResult } from '../../doctor/check.js';
import { printJson } from '../context.js';
import { action } from '../errors.js';
import { checkedArgument, oneOf } from '../filters.js';
import { printLines } from '../terminal-text.js';

function formatCheck(check: CheckResult, width: number): string[] {
  const line = `  ${check.ok ? 'pass' : 'FAIL'}  ${check.name.padEnd(width)}  ${check.detail}`;
  return check.fix ? [line, `        ${' '.repeat(width)}  fix: ${check.fix}`] : [line];
}

export function doctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'preflight: load the configuration as a process would and check Temporal, the namespace, schedules, the bank, secrets and keys',
    )
    .option('--as <role>', `the process to check for: ${doctorRoles.join(', ')}, or all of them`, 'all')
    .option('--json', 'print the report as JSON for machines')
    .action(
      action(async (options: { as: string; json?: boolean }) => {
        const role = doctorRoleSchema.parse(
          checkedArgument('--as', oneOf([...doctorRoles, 'all']), options.as),
        );
        const [{ runDoctor }, { createLogger }, { pino }] = await Promise.all([
          import('../../doctor/run.js'),
          import('../../logger.js'),
          import('pino'),
        ]);
        // Only failures of the checks themselves are worth a log line; the report says the rest.
        const logger = createLogger('fatal', pino.destination(2));
        const report = await runDoctor(process.env, role, logger);
        if (options.json) printJson(report);
        else {
          const width = Math.max(...report.checks.map((check) => check.name.length));
          printLines(`bankflow doctor: BANKFLOW_ENV=${report.env}, as ${role}\n`);
          printLines(report.checks.flatMap((check) => formatCheck(check, width)).join('\n'));
          const failed = report.checks.filter((check) => !check.ok).length;
          printLines(failed === 0 ? '\nall checks passed' : `\n${failed} check(s) failed`);
        }
        if (!report.ok) process.exitCode = 1;
      }),
    );
}

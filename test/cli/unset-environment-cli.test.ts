import { cliTestTimeoutMs } from '../helpers/cli-env.js';
import { runCliWithoutEnvironment } from '../helpers/cli-without-env.js';

const wayOut =
  /^ {2}BANKFLOW_ENV: is unset, so the production checks below apply: to try bankflow locally \(npm start's stack\), set BANKFLOW_ENV=development; for production, set BANKFLOW_ENV=production and fix them$/;

describe('a command run without BANKFLOW_ENV', () => {
  it(
    "says first how to get out, then production's list",
    async () => {
      const refused = await runCliWithoutEnvironment(['payment', 'get', '--external-id', 'order-1']);
      expect(refused.code).toBe(2);
      const [heading, first, ...rest] = refused.stderr.trimEnd().split('\n');
      expect(heading).toBe('Invalid configuration:');
      expect(first).toMatch(wayOut);
      expect(rest).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^ {2}BANK_BASE_URL: is required when BANKFLOW_ENV=production/),
        ]),
      );
      expect(rest.every((line) => /^ {2}[A-Z_]+: /.test(line) && !line.startsWith('  BANKFLOW_ENV:'))).toBe(
        true,
      );
    },
    cliTestTimeoutMs,
  );

  it(
    "doctor's first failed check is the same way out",
    async () => {
      const doctor = await runCliWithoutEnvironment(['doctor']);
      expect(doctor.code).toBe(1);
      const failed = doctor.stdout.split('\n').filter((line) => line.startsWith('  FAIL  configuration'));
      expect(failed.length).toBeGreaterThan(1);
      expect(failed[0]?.replace(/^ {2}FAIL {2}configuration {2}/, '  ')).toMatch(wayOut);
    },
    cliTestTimeoutMs,
  );
});

import { runCli } from '../helpers/cli.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

const steps = [
  'find or create the device',
  'list the participants',
  'start the enrollment',
  'customer authorizes at the bank',
  'get the registration options',
  'register the credential',
  'wait for the enrollment',
  'start the payment',
  'authorize with an assertion',
  'wait for the payment result',
];

describe('bankflow demo', () => {
  let stack: TestStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    env = cliEnvFor(stack);
  });
  afterAll(() => stack?.stop());

  it(
    'runs the whole journey, printing every step, its timing and the workflow links, and exits 0',
    async () => {
      const result = await runCli(['demo', '--ui-url', 'http://ui.example:8233/'], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const lines = result.stdout.split('\n');
      steps.forEach((title, index) => {
        const line = lines.find((candidate) => candidate.includes(title));
        expect(line).toMatch(new RegExp(`^ ?${index + 1}/10  ${title} +\\d+(\\.\\d)? m?s  \\S`));
      });
      expect(result.stdout).toMatch(/wait for the payment result +[\d.]+ m?s {2}settled, end-to-end id E\w+/);

      const namespace = encodeURIComponent(env.TEMPORAL_NAMESPACE ?? '');
      const links = [...result.stdout.matchAll(/^ +(\S+) {2}(http\S+)$/gm)].map(([, id, url]) => ({
        id,
        url,
      }));
      expect(links.map(({ id }) => id?.split(':')[0])).toEqual(['enrollment', 'payment']);
      for (const { id, url } of links) {
        expect(url).toBe(
          `http://ui.example:8233/namespaces/${namespace}/workflows/${encodeURIComponent(id ?? '')}`,
        );
        const described = await stack.client.workflow.getHandle(id ?? '').describe();
        // The enrollment stays running while authorized, following the bank until it is revoked or expires.
        expect(described.status.name).toBe(id?.startsWith('payment:') ? 'COMPLETED' : 'RUNNING');
      }
      expect(result.stdout).toMatch(/\npayment settled in [\d.]+ m?s\n$/);
    },
    cliTestTimeoutMs,
  );

  it(
    'runs again as a new customer, and exits 1 when the payment does not settle',
    async () => {
      const devicesBefore = stack.sandbox.state.biometrics.devices.size;
      const result = await runCli(['demo', '--amount', '2092'], env);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/wait for the payment result +[\d.]+ m?s {2}rejected/);
      expect(result.stdout).toMatch(/http:\/\/localhost:8233\/namespaces\//);
      expect(result.stderr).toMatch(
        /^error: the payment ended rejected after [\d.]+ m?s: the bank reports the payment rejected\n$/,
      );
      expect(stack.sandbox.state.biometrics.devices.size).toBe(devicesBefore + 1);
    },
    cliTestTimeoutMs,
  );

  it(
    'names the step that failed and why',
    async () => {
      const result = await runCli(['demo'], { ...env, BANK_CLIENT_SECRET: 'wrong' });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/1\/10 {2}find or create the device +failed after/);
      expect(result.stderr).toMatch(/^error: find or create the device: .*401.*BANK_CLIENT_ID/);
    },
    cliTestTimeoutMs,
  );
});

import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { control, newCustomer, waitForPhase, type Customer } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

describe('bankflow enrollment', () => {
  let stack: TestStack;
  let env: Record<string, string>;
  const dir = tempDirs('bankflow-enrollment-cli-')();

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    env = cliEnvFor(stack);
  });
  afterAll(() => stack?.stop());

  const keyArgs = (customer: Customer) => [
    '--device',
    customer.deviceId,
    '--participant',
    customer.participantId,
  ];
  const enrollment = (command: string, customer: Customer, ...more: string[]) =>
    runCli(['enrollment', command, ...keyArgs(customer), ...more], env);
  const start = (customer: Customer, ...more: string[]) =>
    enrollment('start', customer, '--return-to', 'https://merchant.example/enrolled', ...more);

  function jsonFile(name: string, value: unknown): string {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  }

  /** A started enrollment the customer authorized at the bank: ready for the credential registration. */
  async function awaitingRegistration(): Promise<Customer> {
    const customer = await newCustomer(stack);
    const started = JSON.parse((await start(customer)).stdout);
    await control(
      stack,
      'POST',
      `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
      {},
    );
    await waitForPhase(stack, customer, 'awaiting_enrollment');
    return customer;
  }

  it(
    '`start` with other terms than the running enrollment exits 1 naming the options',
    async () => {
      const customer = await newCustomer(stack);
      const first = JSON.parse((await start(customer)).stdout);
      const conflicting = await start(customer, '--external-id', 'another-reference');
      expect(conflicting.code).toBe(1);
      expect(conflicting.stderr).toBe(
        `error: ${first.workflowId} was started with other terms: --external-id (started with ` +
          `"enrollment-${customer.deviceId}-${customer.participantId}", now "another-reference"); ` +
          `repeat the first start's terms to join it\n`,
      );
    },
    cliTestTimeoutMs,
  );

  it(
    '`start` prints the workflow id and the redirect URL, and `get` shows where it stands',
    async () => {
      const customer = await newCustomer(stack);
      const result = await start(customer, '--external-id', 'cli-enrollment-1');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const started = JSON.parse(result.stdout);
      expect(Object.keys(started)).toEqual([
        'workflowId',
        'enrollmentId',
        'redirectUrl',
        'status',
        'expirationDatetime',
      ]);
      expect(started).toMatchObject({
        workflowId: `enrollment:${customer.deviceId}:${customer.participantId}`,
        redirectUrl: `${stack.sandbox.url}/sandbox/bank-authorization/${started.enrollmentId}`,
        status: 'awaiting_account_holder_validation',
      });
      expect(stack.sandbox.state.biometrics.enrollments.get(started.enrollmentId)?.record).toMatchObject({
        external_id: 'cli-enrollment-1',
      });

      const got = await enrollment('get', customer);
      expect(got.code).toBe(0);
      expect(JSON.parse(got.stdout)).toMatchObject({
        phase: 'awaiting_account_holder_validation',
        enrollmentId: started.enrollmentId,
        externalId: 'cli-enrollment-1',
      });
    },
    cliTestTimeoutMs,
  );

  it(
    '`start` sends the suggested account to the bank',
    async () => {
      const customer = await newCustomer(stack);
      const result = await start(
        customer,
        ...['--account-ispb', '12345678', '--account-issuer', '0001', '--account-number', '123456'],
        ...['--account-type', 'savings'],
      );
      expect(result.code).toBe(0);
      const { enrollmentId } = JSON.parse(result.stdout);
      expect(stack.sandbox.state.biometrics.enrollments.get(enrollmentId)?.suggestedAccount).toMatchObject({
        ispb: '12345678',
        branch: '0001',
        number: '123456',
        type: 'savings',
      });
    },
    cliTestTimeoutMs,
  );

  it(
    '`start` names the option that is wrong',
    async () => {
      const customer = await newCustomer(stack);
      const cases: [string[], string][] = [
        [['--return-to', 'ftp://merchant.example'], 'error: --return-to: must be an http(s) URL\n'],
        [
          ['--return-to', 'https://m.example', '--account-ispb', '12345678'],
          'error: --account-issuer: is required to suggest an account (--account-ispb, --account-issuer and --account-number go together)\n',
        ],
        [
          [
            '--return-to',
            'https://m.example',
            '--account-ispb',
            '123',
            '--account-issuer',
            '1',
            '--account-number',
            '2',
          ],
          'error: --account-ispb: an ISPB is 8 digits\n',
        ],
      ];
      for (const [args, message] of cases) {
        const result = await enrollment('start', customer, ...args);
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: message });
      }
      const badDevice = await runCli(
        [
          'enrollment',
          'start',
          '--device',
          'x',
          '--participant',
          customer.participantId,
          '--return-to',
          'https://m.example',
        ],
        env,
      );
      expect(badDevice.code).toBe(1);
      expect(badDevice.stderr).toMatch(/^error: --device: /);
    },
    cliTestTimeoutMs,
  );

  it(
    '`options`, `register` (from a file) and `wait` complete the enrollment',
    async () => {
      const customer = await awaitingRegistration();
      const options = await enrollment('options', customer);
      expect(options.stderr).toBe('');
      expect(options.code).toBe(0);
      const creation = JSON.parse(options.stdout.trim());
      expect(creation.challenge).toEqual(expect.any(String));

      const attestation = customer.authenticator.createCredential(options.stdout.trim(), stack.sandbox.url);
      const registered = await enrollment(
        'register',
        customer,
        '--assertion',
        jsonFile('attestation.json', attestation),
      );
      expect(registered.code).toBe(0);
      expect(JSON.parse(registered.stdout)).toMatchObject({ ok: true, status: 'authorized' });

      const waited = await enrollment('wait', customer);
      expect(waited.code).toBe(0);
      expect(JSON.parse(waited.stdout)).toMatchObject({
        outcome: 'authorized',
        enrollment: { device_id: customer.deviceId, status: 'authorized' },
      });
      expect(JSON.parse((await enrollment('get', customer)).stdout)).toMatchObject({ phase: 'authorized' });
    },
    cliTestTimeoutMs,
  );

  it(
    "`register` from stdin prints the bank's refusal, exits 1, and can be retried",
    async () => {
      const customer = await awaitingRegistration();
      const encoded = (await enrollment('options', customer)).stdout.trim();
      const untrusted = customer.authenticator.createCredential(encoded, 'https://evil.example');
      const refused = await runCli(
        ['enrollment', 'register', ...keyArgs(customer), '--assertion', '-'],
        env,
        JSON.stringify(untrusted),
      );
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false });
      expect(refused.stderr).toMatch(/^error: the bank refused the credential: .*origin/i);

      const retry = customer.authenticator.createCredential(
        (await enrollment('options', customer)).stdout.trim(),
        stack.sandbox.url,
      );
      const accepted = await runCli(
        ['enrollment', 'register', ...keyArgs(customer), '--assertion', '-'],
        env,
        JSON.stringify({ fido_assertion: retry }),
      );
      expect(accepted.code).toBe(0);
      expect(JSON.parse(accepted.stdout)).toMatchObject({ ok: true, status: 'authorized' });
    },
    cliTestTimeoutMs,
  );

  it(
    '`register` names --assertion when the file is missing, not JSON, or not an attestation',
    async () => {
      const customer = await newCustomer(stack);
      const missing = await enrollment('register', customer, '--assertion', path.join(dir, 'nope.json'));
      expect(missing.stderr).toMatch(/^error: --assertion: cannot read .*nope\.json: ENOENT/);
      const notJson = path.join(dir, 'not.json');
      writeFileSync(notJson, 'hello');
      expect((await enrollment('register', customer, '--assertion', notJson)).stderr).toBe(
        `error: --assertion: ${notJson} does not hold JSON\n`,
      );
      const wrongShape = await enrollment(
        'register',
        customer,
        '--assertion',
        jsonFile('shape.json', { id: 'abc' }),
      );
      expect(wrongShape.code).toBe(1);
      expect(wrongShape.stderr).toMatch(/^error: --assertion: raw_id: /);
    },
    cliTestTimeoutMs,
  );

  it(
    '`options` waits for the bank authorization, gives up after --wait, and refuses a bad --wait',
    async () => {
      const customer = await newCustomer(stack);
      const started = JSON.parse((await start(customer)).stdout);
      const impatient = await enrollment('options', customer, '--wait', '0.5');
      expect(impatient.code).toBe(1);
      expect(impatient.stderr).toBe(
        `error: ${started.workflowId} did not answer within 0.5 s; ask again with the same request id\n`,
      );
      const badWait = await enrollment('options', customer, '--wait', 'soon');
      expect(badWait.code).toBe(1);
      expect(badWait.stderr).toBe('error: --wait: must be a positive number of seconds\n');

      const patient = enrollment('options', customer);
      await control(
        stack,
        'POST',
        `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
        {},
      );
      const answered = await patient;
      expect(answered.stderr).toBe('');
      expect(answered.code).toBe(0);
      expect(JSON.parse(answered.stdout)).toMatchObject({ challenge: expect.any(String) });
    },
    cliTestTimeoutMs,
  );

  it(
    '`wait` exits 1 with the outcome when the bank rejects the enrollment',
    async () => {
      const customer = await newCustomer(stack);
      const { enrollmentId } = JSON.parse((await start(customer)).stdout);
      await control(stack, 'POST', `/sandbox/biometrics/enrollments/${enrollmentId}/reject`, {});
      const result = await enrollment('wait', customer);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ outcome: 'rejected' });
      expect(result.stderr).toMatch(
        /^error: the enrollment ended rejected: the bank reports the enrollment rejected/,
      );
    },
    cliTestTimeoutMs,
  );

  it(
    '`get` reports an enrollment that was never started',
    async () => {
      const customer = { ...(await newCustomer(stack)), participantId: randomUUID() };
      const result = await enrollment('get', customer);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: no workflow enrollment:${customer.deviceId}:${customer.participantId} in this namespace`,
        ),
      );
    },
    cliTestTimeoutMs,
  );
});

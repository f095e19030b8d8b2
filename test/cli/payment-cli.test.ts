import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AuthorizeFidoAssertion } from '../../src/bank/schemas/fido.js';
import { runCli } from '../helpers/cli.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { enroll, newCustomer, world, type Customer } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

describe('bankflow payment', () => {
  let stack: TestStack;
  let env: Record<string, string>;
  let customer: Customer;
  let enrollmentId: string;
  const dir = tempDirs('bankflow-payment-cli-')();

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    env = cliEnvFor(stack);
    customer = await newCustomer(stack);
    const enrolled = await enroll(stack, customer);
    enrollmentId = enrolled.started.enrollmentId;
  });
  afterAll(() => stack?.stop());

  const payment = (...args: string[]) => runCli(['payment', ...args], env);

  function startArgs(overrides: Record<string, string> = {}): string[] {
    const { entityId, virtualAccountId } = world(stack);
    const options = {
      '--enrollment': enrollmentId,
      '--device': customer.deviceId,
      '--amount': '1050',
      '--description': 'Pedido 1234',
      '--entity': entityId,
      '--virtual-account': virtualAccountId,
      '--external-id': `cli-${randomUUID()}`,
      ...overrides,
    };
    return ['start', ...Object.entries(options).flat()];
  }

  async function started(overrides: Record<string, string> = {}) {
    const result = await payment(...startArgs(overrides));
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as { externalId: string; publicKeyEncoded: string; workflowId: string };
  }

  function assertionFile(assertion: AuthorizeFidoAssertion): string {
    const file = path.join(dir, `${randomUUID()}.json`);
    writeFileSync(file, JSON.stringify(assertion));
    return file;
  }

  function tampered(assertion: AuthorizeFidoAssertion): AuthorizeFidoAssertion {
    const signature = Buffer.from(assertion.response.signature, 'base64url');
    signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0x01, signature.length - 1);
    return { ...assertion, response: { ...assertion.response, signature: signature.toString('base64url') } };
  }

  it(
    '`start`, `authorize`, `wait` and `get` take a payment to settled',
    async () => {
      const result = await payment(...startArgs({ '--external-id': 'cli-order-1' }));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const created = JSON.parse(result.stdout);
      expect(Object.keys(created)).toEqual(['externalId', 'workflowId', 'payment', 'publicKeyEncoded']);
      expect(created).toMatchObject({
        externalId: 'cli-order-1',
        workflowId: 'payment:cli-order-1',
        payment: { external_id: 'cli-order-1', description: 'Pedido 1234' },
      });
      expect(created.payment.amount.amount).toBe(1050);

      const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
      const authorized = await payment(
        'authorize',
        '--external-id',
        'cli-order-1',
        '--assertion',
        assertionFile(assertion),
      );
      expect(authorized.stderr).toBe('');
      expect(JSON.parse(authorized.stdout)).toEqual({ ok: true, status: 'awaiting_payment' });

      const waited = await payment('wait', '--external-id', 'cli-order-1');
      expect(waited.code).toBe(0);
      const outcome = JSON.parse(waited.stdout);
      expect(outcome).toMatchObject({ outcome: 'settled', status: 'settled', paymentId: created.payment.id });
      expect(outcome.endToEndId).toEqual(expect.any(String));

      const got = await payment('get', '--external-id', 'cli-order-1');
      expect(got.code).toBe(0);
      expect(JSON.parse(got.stdout)).toMatchObject({ phase: 'settled', authorizeAttempts: 1 });

      const again = await payment(...startArgs({ '--external-id': 'cli-order-1' }));
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({
        payment: { id: created.payment.id },
        result: { outcome: 'settled', paymentId: created.payment.id },
      });
    },
    cliTestTimeoutMs,
  );

  it(
    '`start` with other terms than the first start of its external id exits 1 naming the options',
    async () => {
      const first = await started();
      const conflicting = await payment(
        ...startArgs({ '--external-id': first.externalId, '--amount': '999', '--description': 'Pedido 9' }),
      );
      expect(conflicting.code).toBe(1);
      expect(conflicting.stdout).toBe('');
      expect(conflicting.stderr).toBe(
        `error: ${first.workflowId} was started with other terms: --amount (started with 1050, now 999), ` +
          `--description (started with "Pedido 1234", now "Pedido 9"); repeat the first start's terms to join it\n`,
      );
    },
    cliTestTimeoutMs,
  );

  it(
    '`start` generates an external id when none is given',
    async () => {
      const args = startArgs();
      const index = args.indexOf('--external-id');
      const result = await payment(...args.slice(0, index), ...args.slice(index + 2));
      expect(result.code).toBe(0);
      const created = JSON.parse(result.stdout);
      expect(created.externalId).toMatch(/^pix-[0-9a-f-]{36}$/);
      expect(created.workflowId).toBe(`payment:${created.externalId}`);
    },
    cliTestTimeoutMs,
  );

  it(
    '`options` prints fresh authorization options, and `authorize` from stdin can be retried after a refusal; `--request-id` repeats get the first answer',
    async () => {
      const { externalId } = await started();
      const options = await payment('options', '--external-id', externalId);
      expect(options.code).toBe(0);
      const encoded = options.stdout.trim();
      expect(JSON.parse(encoded).challenge).toEqual(expect.any(String));

      const bad = tampered(customer.authenticator.getAssertion(encoded, stack.sandbox.url));
      const refused = await runCli(
        ['payment', 'authorize', '--external-id', externalId, '--assertion', '-'],
        env,
        JSON.stringify(bad),
      );
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, status: 'awaiting_consent' });
      expect(refused.stderr).toMatch(/^error: the bank refused the assertion: .*signature/i);

      const fresh = (
        await payment('options', '--external-id', externalId, '--request-id', 'reload-1')
      ).stdout.trim();
      expect(
        (await payment('options', '--external-id', externalId, '--request-id', 'reload-1')).stdout.trim(),
      ).toBe(fresh);
      const good = customer.authenticator.getAssertion(fresh, stack.sandbox.url);
      const authorize = ['payment', 'authorize', '--external-id', externalId, '--assertion', '-'];
      const accepted = await runCli([...authorize, '--request-id', 'pay-1'], env, JSON.stringify(good));
      expect(accepted.code).toBe(0);
      expect(JSON.parse(accepted.stdout)).toEqual({ ok: true, status: 'awaiting_payment' });
      // The same request id is the same request: its first answer, though this body would be refused.
      const repeated = await runCli([...authorize, '--request-id', 'pay-1'], env, JSON.stringify(bad));
      expect(repeated.code).toBe(0);
      expect(JSON.parse(repeated.stdout)).toEqual({ ok: true, status: 'awaiting_payment' });
    },
    cliTestTimeoutMs,
  );

  it(
    '`wait` exits 1 with the outcome when the bank fails the payment; a late `authorize` is refused, a repeated one answered',
    async () => {
      const created = await started({ '--amount': '1091' });
      const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
      expect(
        (
          await payment(
            'authorize',
            '--external-id',
            created.externalId,
            '--assertion',
            assertionFile(assertion),
          )
        ).code,
      ).toBe(0);
      const result = await payment('wait', '--external-id', created.externalId);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ outcome: 'failed' });
      expect(result.stderr).toBe('error: the payment ended failed: the bank reports the payment failed\n');

      // The same assertion is the same request, answered as the first time; any other is refused.
      const repeated = await payment(
        'authorize',
        '--external-id',
        created.externalId,
        '--assertion',
        assertionFile(assertion),
      );
      expect(repeated.code).toBe(0);
      const late = await payment(
        'authorize',
        '--external-id',
        created.externalId,
        '--assertion',
        assertionFile(assertion),
        '--request-id',
        'late-1',
        '--wait',
        '5',
      );
      expect(late.code).toBe(1);
      expect(late.stderr).toBe(
        `error: payment:${created.externalId} has ended (completed) and takes no more requests\n`,
      );
      const badWait = await payment('options', '--external-id', created.externalId, '--wait', '0');
      expect(badWait.code).toBe(1);
      expect(badWait.stderr).toBe('error: --wait: must be a positive number of seconds\n');
    },
    cliTestTimeoutMs,
  );

  it(
    '`start` names the option that is wrong',
    async () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{ '--amount': '10.50' }, /^error: --amount: must be a whole number of cents\n$/],
        [{ '--amount': '0' }, /^error: --amount: must be more than zero\n$/],
        [{ '--entity': 'shop' }, /^error: --entity: /],
        [{ '--description': 'x'.repeat(141) }, /^error: --description: must be at most 140 characters/],
        [
          { '--external-id': 'has spaces' },
          /^error: --external-id: may hold only letters, digits and \. _ : -\n$/,
        ],
      ];
      for (const [overrides, message] of cases) {
        const result = await payment(...startArgs(overrides));
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(message);
      }
    },
    cliTestTimeoutMs,
  );

  it(
    '`start` refuses an enrollment that is not authorized',
    async () => {
      const stranger = randomUUID();
      const result = await payment(...startArgs({ '--enrollment': stranger }));
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `error: enrollment ${stranger} does not exist for device ${customer.deviceId}\n`,
      );
    },
    cliTestTimeoutMs,
  );

  it(
    '`options`, `get`, `authorize` and `wait` report a payment that was never started, or a bad reference',
    async () => {
      for (const command of ['options', 'get', 'wait']) {
        const result = await payment(command, '--external-id', 'never-started');
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/^error: no workflow payment:never-started in this namespace/);
      }
      const bad = await payment('get', '--external-id', 'a/b');
      expect(bad.stderr).toMatch(/^error: --external-id: may hold only/);
      const noAssertion = await payment(
        'authorize',
        '--external-id',
        'never-started',
        '--assertion',
        assertionFile({} as AuthorizeFidoAssertion),
      );
      expect(noAssertion.stderr).toMatch(/^error: --assertion: id: /);
    },
    cliTestTimeoutMs,
  );
});

import { randomUUID } from 'node:crypto';
import { runCli } from '../helpers/cli.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { enroll, newCustomer } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

describe('bankflow device and participants', () => {
  let stack: TestStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    env = cliEnvFor(stack);
  });
  afterAll(() => stack?.stop());

  const findOrCreate = (fingerprint: string, ...more: string[]) =>
    runCli(
      ['device', 'find-or-create', '--fingerprint', fingerprint, '--tax-number', '12345678909', ...more],
      env,
    );

  it(
    '`device find-or-create` creates a device, then finds the same one',
    async () => {
      const fingerprint = `cli-${randomUUID()}`;
      const created = await findOrCreate(fingerprint, '--name', 'Maria Silva');
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      const device = JSON.parse(created.stdout);
      expect(device).toMatchObject({
        fingerprint,
        counterparty_tax_number: '12345678909',
        counterparty_name: 'Maria Silva',
      });
      expect(stack.sandbox.state.biometrics.devices.has(device.id)).toBe(true);

      const found = await findOrCreate(fingerprint, '--load-enrollments');
      expect(found.code).toBe(0);
      expect(JSON.parse(found.stdout)).toMatchObject({ id: device.id, enrollments: [] });
    },
    cliTestTimeoutMs,
  );

  it(
    '`device find-or-create` names --tax-number when it is not a CPF or CNPJ',
    async () => {
      const result = await runCli(
        ['device', 'find-or-create', '--fingerprint', 'fp', '--tax-number', '123'],
        env,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('error: --tax-number: a CPF (11 digits) or CNPJ (14 digits)\n');
    },
    cliTestTimeoutMs,
  );

  it(
    '`device find-or-create` names the credentials the bank refuses',
    async () => {
      const result = await runCli(
        ['device', 'find-or-create', '--fingerprint', 'fp', '--tax-number', '12345678909'],
        { ...env, BANK_CLIENT_SECRET: 'wrong' },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^error: findOrCreateDevice: the bank refused the credentials \(HTTP 401 UNAUTHORIZED\); check BANK_CLIENT_ID and BANK_CLIENT_SECRET\n$/,
      );
    },
    cliTestTimeoutMs,
  );

  it(
    '`participants` lists every participant as JSON',
    async () => {
      const result = await runCli(['participants'], env);
      expect(result.code).toBe(0);
      const listed = JSON.parse(result.stdout);
      expect(listed.map((p: { id: string }) => p.id)).toEqual(
        stack.sandbox.state.biometrics.participants.map((p) => p.id),
      );
    },
    cliTestTimeoutMs,
  );

  it(
    '`participants --device` puts the participant the device is enrolled with first',
    async () => {
      const customer = await newCustomer(stack);
      const participants = stack.sandbox.state.biometrics.participants;
      const later = participants.filter((p) => p.is_enrollment_available && !p.unavailable).at(-1);
      customer.participantId = later?.id ?? '';
      expect(participants[0]?.id).not.toBe(customer.participantId);
      expect((await enroll(stack, customer)).result.outcome).toBe('authorized');

      const result = await runCli(['participants', '--device', customer.deviceId], env);
      expect(result.code).toBe(0);
      const [first, ...rest] = JSON.parse(result.stdout);
      expect(first).toMatchObject({ id: customer.participantId, 'enrolled?': true });
      expect(first.enrollment).toMatchObject({ device_id: customer.deviceId, status: 'authorized' });
      expect(rest.every((p: { 'enrolled?': boolean }) => p['enrolled?'] === false)).toBe(true);

      const table = await runCli(['participants', '--device', customer.deviceId, '--table'], env);
      expect(table.code).toBe(0);
      const [header, row] = table.stdout.trimEnd().split('\n');
      expect(header).toMatch(/^ID +NAME +ISPB +AVAILABLE +ENROLLED +ENROLLMENT$/);
      expect(row).toMatch(
        new RegExp(`^${customer.participantId} +${later?.name}.* yes +yes +[0-9a-f-]{36} authorized$`),
      );
      expect(table.stdout.trimEnd().split('\n')).toHaveLength(participants.length + 1);
    },
    cliTestTimeoutMs,
  );

  it(
    '`participants` names --device when it is not a uuid, and reports a device the bank does not know',
    async () => {
      const bad = await runCli(['participants', '--device', 'abc'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^error: --device: /);

      const unknown = randomUUID();
      const missing = await runCli(['participants', '--device', unknown], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(new RegExp(`^error: .*404.*device ${unknown} not found`));
    },
    cliTestTimeoutMs,
  );
});

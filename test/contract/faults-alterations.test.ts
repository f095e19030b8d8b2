import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import type { AlterationRule, FaultInjector, FaultSettings } from '../../devkit/sandbox/faults.js';
import { BankInvalidResponseError } from '../../src/bank/errors.js';
import { failureOf, startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';
import { authorizeAtSandboxBank, createSandboxEnrollment } from '../helpers/sandbox-enrollments.js';
import { sandboxControl } from '../helpers/sandbox-control.js';

type Rule = Partial<AlterationRule> & { mode: AlterationRule['mode'] };

/** The JSON request bodies docs/sandbox.md shows for `PUT /sandbox/faults`, in page order. */
function documentedFaultRequests(): unknown[] {
  const page = readFileSync('docs/sandbox.md', 'utf8');
  return [...page.matchAll(/PUT \/sandbox\/faults`?[^\n]*\n+```json\n([\s\S]*?)\n```/g)].map((match) =>
    JSON.parse(match[1] ?? ''),
  );
}

describe('alter_next changes the answers the bank sends, never the records it holds', () => {
  let data: DataSandbox;
  const control = () => sandboxControl(data.sandbox.url);

  beforeAll(async () => {
    data = await startDataSandbox();
  });
  afterAll(() => data?.stop());
  beforeEach(async () => {
    expect((await control().post('/sandbox/reset', {})).status).toBe(200);
  });

  async function alterNext(...rules: Rule[]): Promise<void> {
    const response = await control().put('/sandbox/faults', { alter_next: rules });
    expect(response.status).toBe(200);
  }

  async function faults() {
    const response = await control().get<{
      data: { settings: FaultSettings; injected: FaultInjector['injected'] };
    }>('/sandbox/faults');
    return response.body.data;
  }

  /** A payment on an authorized enrollment, as a journey follows it, and the path of its GET. */
  async function newPayment() {
    const { device, enrollment } = await createSandboxEnrollment(
      data.bank,
      data.sandbox,
      'https://merchant.example/',
    );
    await authorizeAtSandboxBank(data.sandbox, enrollment.id);
    const options = await data.bank.getRegistrationOptions(enrollment.id);
    await data.bank.registerCredential(enrollment.id, {
      fido_assertion: SoftwareAuthenticator.create().createCredential(
        options.public_key_encoded,
        data.sandbox.url,
      ),
    });
    const request = {
      entity_id: data.sandbox.state.world.entityIds[0]!,
      virtual_account_id: data.sandbox.state.world.virtualAccountIds[0]!,
      amount: 1_050,
      description: 'Pedido 1234',
      external_id: randomUUID(),
    };
    const payment = await data.bank.createBiometricPayment(enrollment.id, request);
    const path = `/banking/cashin/pix/biometrics/enrollments/${enrollment.id}/payments/${payment.id}`;
    const held = () => data.sandbox.state.biometrics.payments.get(payment.id)?.record;
    const read = () => data.bank.getBiometricPayment(enrollment.id, payment.id);
    return { device, enrollment, payment, path, held, read, request };
  }

  it('answers a payment in a status the spec does not list, as sent, while the bank keeps its own (unknown_status)', async () => {
    const { path, held, read } = await newPayment();
    const status = held()?.status;
    await alterNext({ mode: 'unknown_status', count: 2 });

    const raw = await data.raw(path);
    expect(raw.statusCode).toBe(200);
    expect(raw.json().data).toMatchObject({ ...held(), status: 'under_review' });
    expect((await read()).status).toBe('under_review');
    expect(held()?.status).toBe(status);
    expect((await read()).status).toBe(status);
    expect(await faults()).toMatchObject({
      injected: { answersAltered: 2 },
      settings: { alter_next: [{ count: 0 }] },
    });
  });

  it('alters every record of a list, with the status it is given', async () => {
    const { device, enrollment } = await createSandboxEnrollment(
      data.bank,
      data.sandbox,
      'https://merchant.example/',
    );
    await alterNext({ mode: 'unknown_status', status: 'on_hold', count: 1 });
    const listed = await data.bank.listEnrollments({ device_id: device.id });
    expect(listed.data.map((item) => [item.id, item.status])).toEqual([[enrollment.id, 'on_hold']]);
    expect(data.sandbox.state.biometrics.enrollments.get(enrollment.id)?.record.status).toBe(
      'awaiting_account_holder_validation',
    );
  });

  it('adds an unknown member to each record, and with nested to every object inside it (unknown_member)', async () => {
    const { path, read } = await newPayment();
    await alterNext({ mode: 'unknown_member', nested: true, count: 1 });
    const nested = (await data.raw(path)).json().data;
    expect(nested).toMatchObject({ risk_score: 0.5, amount: { risk_score: 0.5, currency: 'BRL' } });

    await alterNext({ mode: 'unknown_member', member: 'channel', value: { kind: 'app' }, count: 1 });
    const payment = await read();
    expect(payment).toMatchObject({ channel: { kind: 'app' } });
    expect(payment.amount).not.toHaveProperty('channel');
    expect(await read()).not.toHaveProperty('channel');
  });

  it.each(['end_to_end_id', 'updated_at'])(
    'removes %s from each record; the client names it as the member it misses (missing_member)',
    async (member) => {
      const { path, read, held } = await newPayment();
      await alterNext({ mode: 'missing_member', member, count: 2 });
      expect((await data.raw(path)).json().data).not.toHaveProperty(member);
      const failure = await failureOf(read());
      expect(failure).toBeInstanceOf(BankInvalidResponseError);
      expect(failure.message).toContain(`data.${member}`);
      expect(held()).toHaveProperty(member);
      expect(await read()).toHaveProperty(member);
    },
  );

  it('cuts a 2xx body short, leaving error answers whole and the rule unspent by them (malformed_body)', async () => {
    const { path, read, payment } = await newPayment();
    await alterNext({ mode: 'malformed_body', count: 1 });
    const missing = await data.raw(`${path.slice(0, -payment.id.length)}${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toHaveProperty('errors');

    const cut = await data.raw(path);
    expect(cut.statusCode).toBe(200);
    expect(cut.headers.get('content-type')).toContain('application/json');
    expect(() => JSON.parse(cut.body)).toThrow(SyntaxError);
    await alterNext({ mode: 'malformed_body', count: 1 });
    const failure = await failureOf(read());
    expect(failure).toBeInstanceOf(BankInvalidResponseError);
    expect(failure.message).toContain('not JSON');
    expect((await read()).id).toBe(payment.id);
  });

  it('alters reads unless a write method is named, and a write answer only, never the write itself', async () => {
    const { enrollment, request } = await newPayment();
    await alterNext({ mode: 'unknown_status', count: 1 });
    const created = await data.bank.createBiometricPayment(enrollment.id, {
      ...request,
      external_id: randomUUID(),
    });
    expect(created.status).not.toBe('under_review');
    expect((await faults()).settings.alter_next).toEqual([
      expect.objectContaining({ method: 'GET', count: 1 }),
    ]);

    await alterNext({
      mode: 'unknown_status',
      method: 'post',
      path_prefix: '/banking/cashin/pix/biometrics/',
      count: 1,
    });
    const second = await data.bank.createBiometricPayment(enrollment.id, {
      ...request,
      external_id: randomUUID(),
    });
    expect(second.status).toBe('under_review');
    expect(data.sandbox.state.biometrics.payments.get(second.id)?.record.status).not.toBe('under_review');
  });

  it('spends a rule only on an answer it changed: a record without a status takes no unknown status', async () => {
    const { enrollment, payment, read } = await newPayment();
    await alterNext({ mode: 'unknown_status', count: 1 });
    const options = await data.bank.getPaymentAuthorizationOptions(enrollment.id, payment.id);
    expect(options).not.toHaveProperty('status');
    expect((await faults()).settings.alter_next).toEqual([expect.objectContaining({ count: 1 })]);
    expect((await read()).status).toBe('under_review');
  });

  it('applies every live rule to one answer, and for_ms rules to every matching answer until they end', async () => {
    const { read, held } = await newPayment();
    const windowMs = 2_500;
    const setAt = Date.now();
    await alterNext(
      { mode: 'unknown_status', for_ms: windowMs, path_prefix: '/banking/cashin/pix/biometrics/' },
      { mode: 'unknown_member', for_ms: windowMs },
    );
    for (let call = 0; call < 3; call++) {
      expect(await read()).toMatchObject({ status: 'under_review', risk_score: 0.5 });
    }
    await sleep(Math.max(0, setAt + windowMs + 100 - Date.now()));
    const after = await read();
    expect(after.status).toBe(held()?.status);
    expect(after).not.toHaveProperty('risk_score');
    expect((await faults()).injected.answersAltered).toBe(3);
  });

  it('refuses alteration rules it cannot apply, naming each member and the reason', async () => {
    const refused = await control().put<{ errors: { detail: string; source: { pointer: string } }[] }>(
      '/sandbox/faults',
      {
        alter_next: [
          { mode: 'shuffled_members', count: 1 },
          { mode: 'missing_member', count: 1 },
          { mode: 'unknown_status', status: 'settled', count: 1 },
          { mode: 'malformed_body' },
          { mode: 'unknown_member', count: 1, for_ms: 10 },
          { mode: 'malformed_body', count: 1, member: 'id' },
        ],
      },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error) => [error.source.pointer, error.detail])).toEqual([
      ['/alter_next/0/mode', 'must be one of unknown_status, unknown_member, missing_member, malformed_body'],
      ['/alter_next/1/member', 'required: the member to remove, e.g. updated_at'],
      ['/alter_next/2/status', 'must be a status the spec does not list, e.g. under_review'],
      ['/alter_next/3/count', expect.stringMatching(/^required: .*count.*for_ms/)],
      ['/alter_next/4/for_ms', expect.stringContaining('not both')],
      ['/alter_next/5', expect.stringContaining('member')],
    ]);
  });

  it('does what docs/sandbox.md shows: a credential rotation, then a schema drift', async () => {
    const [rotation, drift] = documentedFaultRequests();
    expect(rotation).toBeDefined();
    expect(drift).toBeDefined();
    const { read, path } = await newPayment();

    expect((await control().put('/sandbox/faults', rotation)).status).toBe(200);
    expect((await data.raw(path)).statusCode).toBe(401);

    expect((await control().put('/sandbox/faults', drift)).status).toBe(200);
    const drifted = await read();
    expect(drifted.status).toBe('under_review');
    expect(drifted).toMatchObject({ risk_score: 0.5, amount: { risk_score: 0.5 } });
  });
});

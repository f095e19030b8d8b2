import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationFailure } from '@temporalio/common';
import { createBankCallActivities } from '../../src/activities/bank-calls.js';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import { BankClient } from '../../src/bank/client.js';
import {
  BankNotFoundError,
  BankRequestRejectedError,
  BankUnauthorizedError,
  BankValidationError,
} from '../../src/bank/errors.js';
import { nonRetryableBankErrorTypes } from '../../src/bank/vocabulary.js';
import {
  biometricPaymentSchema,
  collectingDocumentSchema,
  enrollmentSchema,
  fidoCreationOptionsSchema,
  fidoRequestOptionsSchema,
  type AuthorizeFidoAssertion,
  type BiometricPayment,
  type CreateEnrollmentRequest,
  type Device,
  type Enrollment,
  type WebhookEnvelope,
} from '../../src/bank/schemas/index.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import { sandboxControl } from '../helpers/sandbox-control.js';

const credentials = { clientId: 'test-client', clientSecret: 'test-secret' };
const logger = createLogger('silent');
const endToEndIdPattern = /^E\d{8}\d{12}[A-Za-z0-9]{11}$/;
const returnToUrl = 'https://merchant.example/biometrics/done';

let sandbox: RunningSandbox;
let bank: BankClient;
let wrongBank: BankClient;
let control: ReturnType<typeof sandboxControl>;

beforeAll(async () => {
  sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: 42,
    credentials,
    logger,
    biometrics: { settlementDelayMs: 50 },
  });
  const config = { ...credentials, timeoutMs: 5_000, baseUrl: sandbox.url };
  bank = new BankClient(config, logger);
  wrongBank = new BankClient({ ...config, clientSecret: 'not-the-secret' }, logger);
  control = sandboxControl(sandbox.url);
});

afterAll(async () => {
  await sandbox?.stop();
});

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('expected the call to fail');
  return outcome;
}

async function validationPointers(promise: Promise<unknown>): Promise<string[]> {
  const error = await failureOf(promise);
  expect(error).toBeInstanceOf(BankValidationError);
  return (error as BankValidationError).errors.map((item) => item.source?.pointer ?? '');
}

async function rejection(promise: Promise<unknown>): Promise<BankRequestRejectedError> {
  const error = await failureOf(promise);
  expect(error).toBeInstanceOf(BankRequestRejectedError);
  return error as BankRequestRejectedError;
}

async function expectUnauthorized(promise: Promise<unknown>): Promise<void> {
  expect(await failureOf(promise)).toBeInstanceOf(BankUnauthorizedError);
}

const participants = () => sandbox.state.biometrics.participants;
const enrollable = (index = 0) => {
  const participant = participants().filter((p) => p.is_enrollment_available)[index];
  if (!participant) throw new Error('no enrollable participant seeded');
  return participant;
};
const world = () => sandbox.state.world;

function webhooksFor(refId: string, category?: string): WebhookEnvelope[] {
  return sandbox.webhooks.published.filter(
    (event) => event.ref_id === refId && (category === undefined || event.category === category),
  );
}

async function eventually<T>(read: () => T | undefined, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

function newDevice(overrides: Record<string, unknown> = {}): Promise<Device> {
  return bank.findOrCreateDevice({
    fingerprint: randomUUID(),
    counterparty_tax_number: '12345678909',
    counterparty_name: 'Ana Souza',
    os: 'iOS',
    os_version: '17.4',
    language: 'pt-BR',
    screen_width: 390,
    screen_height: 844,
    account_tenure: '2019-03-01',
    timezone_offset: '-03:00',
    ...overrides,
  });
}

async function newEnrollment(
  request: Partial<CreateEnrollmentRequest> = {},
): Promise<{ device: Device; enrollment: Enrollment }> {
  const device = await newDevice();
  const enrollment = await bank.createEnrollment({
    device_id: device.id,
    participant_id: enrollable().id,
    return_to_url: returnToUrl,
    external_id: randomUUID(),
    ...request,
  });
  return { device, enrollment };
}

async function authorizeAtBank(enrollmentId: string, accountInfo?: Record<string, string>) {
  const response = await control.post<{ data: Enrollment }>(
    `/sandbox/biometrics/enrollments/${enrollmentId}/bank-authorization`,
    accountInfo ? { account_info: accountInfo } : {},
  );
  expect(response.status).toBe(200);
  return response.body.data;
}

/** Device, enrollment, bank authorization and credential registration: an enrollment ready for payments. */
async function authorizedEnrollment() {
  const { device, enrollment } = await newEnrollment();
  await authorizeAtBank(enrollment.id);
  const authenticator = SoftwareAuthenticator.create();
  const options = await bank.getRegistrationOptions(enrollment.id);
  const registered = await bank.registerCredential(enrollment.id, {
    fido_assertion: authenticator.createCredential(options.public_key_encoded, sandbox.url),
  });
  return { device, enrollment: registered, authenticator };
}

type Ready = Awaited<ReturnType<typeof authorizedEnrollment>>;

function newPayment(enrollmentId: string, amount = 1_050, externalId: string = randomUUID()) {
  return bank.createBiometricPayment(enrollmentId, {
    entity_id: world().entityIds[0] as string,
    virtual_account_id: world().virtualAccountIds[0] as string,
    amount,
    description: 'Pedido 1234',
    external_id: externalId,
  });
}

async function assertionFor(ready: Ready, paymentId: string): Promise<AuthorizeFidoAssertion> {
  const options = await bank.getPaymentAuthorizationOptions(ready.enrollment.id, paymentId);
  return ready.authenticator.getAssertion(options.public_key_encoded, sandbox.url);
}

async function authorizeCalls(paymentId: string) {
  const response = await control.get<{ data: { successful: number; refused: number } }>(
    `/sandbox/biometrics/payments/${paymentId}/authorize-calls`,
  );
  return response.body.data;
}

function tamperedSignature(fido: AuthorizeFidoAssertion): AuthorizeFidoAssertion {
  const signature = Buffer.from(fido.response.signature, 'base64url');
  const last = signature.length - 1;
  signature.writeUInt8(signature.readUInt8(last) ^ 0x01, last);
  return { ...fido, response: { ...fido.response, signature: signature.toString('base64url') } };
}

async function settled(ready: Ready, paymentId: string): Promise<BiometricPayment> {
  return eventually(() => {
    const payment = sandbox.state.biometrics.payments.get(paymentId)?.record;
    return payment && ['settled', 'failed', 'rejected'].includes(payment.status) ? payment : undefined;
  }).then(() => bank.getBiometricPayment(ready.enrollment.id, paymentId));
}

describe('POST /biometrics/devices', () => {
  it('creates a device, then finds the same one by fingerprint and tax number', async () => {
    const fingerprint = randomUUID();
    const created = await newDevice({ fingerprint });
    expect(created).toMatchObject({
      fingerprint,
      counterparty_tax_number: '12345678909',
      os_version: '17.4',
      timezone_offset: '-03:00',
    });
    expect(created.enrollments).toBeUndefined();

    const again = await newDevice({ fingerprint, os_version: '17.5' });
    expect(again.id).toBe(created.id);
    expect(again.os_version).toBe('17.5');
    const otherCustomer = await newDevice({ fingerprint, counterparty_tax_number: '98765432100' });
    expect(otherCustomer.id).not.toBe(created.id);
  });

  it('loads the device enrollments when asked', async () => {
    const { device, enrollment } = await newEnrollment();
    const loaded = await newDevice({
      fingerprint: device.fingerprint,
      counterparty_tax_number: device.counterparty_tax_number,
      load_enrollments: true,
    });
    expect(loaded.id).toBe(device.id);
    expect(loaded.enrollments?.map((item) => item.id)).toEqual([enrollment.id]);
    expect(loaded.enrollments?.[0]?.participant?.id).toBe(enrollment.participant_id);
  });

  it('refuses wrong credentials with 401', async () => {
    await expectUnauthorized(
      wrongBank.findOrCreateDevice({ fingerprint: 'x', counterparty_tax_number: '12345678909' }),
    );
  });

  it('names each invalid member with a pointer', async () => {
    const pointers = await validationPointers(
      bank.findOrCreateDevice({
        counterparty_tax_number: '123',
        timezone_offset: 'UTC',
      } as unknown as Parameters<BankClient['findOrCreateDevice']>[0]),
    );
    expect(pointers.sort()).toEqual(['/counterparty_tax_number', '/fingerprint', '/timezone_offset']);
  });
});

describe('GET /biometrics/participants', () => {
  it('lists the seeded participants, the same for the same seed', async () => {
    const page = await bank.listParticipants();
    expect(page.data).toHaveLength(12);
    expect(page.metadata.has_next).toBe(false);
    const bb = page.data.find((participant) => participant.slug === 'banco-do-brasil');
    expect(bb).toMatchObject({ ispb: '00000000', name: 'Banco do Brasil', unavailable: false });
    expect(page.data.filter((participant) => participant.unavailable)).toHaveLength(1);
    expect(page.data.filter((participant) => !participant.is_enrollment_available)).toHaveLength(2);
    expect(page.data.every((participant) => /^\d{8}$/.test(participant.ispb))).toBe(true);
    expect(page.data[0]?.['enrolled?']).toBeUndefined();

    const twin = await startSandbox({ host: '127.0.0.1', port: 0, seed: 42, credentials, logger });
    const other = await startSandbox({ host: '127.0.0.1', port: 0, seed: 7, credentials, logger });
    try {
      expect(twin.state.biometrics.participants).toEqual(participants());
      expect(other.state.biometrics.participants.map((p) => p.id)).not.toEqual(
        participants().map((p) => p.id),
      );
    } finally {
      await twin.stop();
      await other.stop();
    }
  });

  it('puts the participants a device is enrolled with first, with the enrollment', async () => {
    const ready = await authorizedEnrollment();
    const page = await bank.listParticipants({ device_id: ready.device.id });
    expect(page.data).toHaveLength(12);
    const [first, ...rest] = page.data;
    expect(first?.id).toBe(ready.enrollment.participant_id);
    expect(first?.['enrolled?']).toBe(true);
    expect(first?.enrollment).toMatchObject({ id: ready.enrollment.id, status: 'authorized' });
    expect(
      rest.every((participant) => participant['enrolled?'] === false && participant.enrollment === null),
    ).toBe(true);
  });

  it('refuses wrong credentials, a malformed device id and an unknown device', async () => {
    await expectUnauthorized(wrongBank.listParticipants());
    expect(await validationPointers(bank.listParticipants({ device_id: 'not-a-uuid' }))).toEqual([
      '/query/device_id',
    ]);
    expect(await failureOf(bank.listParticipants({ device_id: randomUUID() }))).toBeInstanceOf(
      BankNotFoundError,
    );
  });
});

describe('POST /banking/cashin/pix/biometrics/enrollments', () => {
  it('creates an enrollment awaiting the account holder, with the bank page to send the customer to', async () => {
    const started = Date.now();
    const { device, enrollment } = await newEnrollment({
      account_info: { ispb: enrollable().ispb, issuer: '0001', number: '123456-7', account_type: 'checking' },
    });
    const answered = Date.now();
    expect(enrollmentSchema.parse(enrollment)).toEqual(enrollment);
    expect(enrollment.status).toBe('awaiting_account_holder_validation');
    expect(enrollment.device_id).toBe(device.id);
    expect(enrollment.redirect_url).toBe(`${sandbox.url}/sandbox/bank-authorization/${enrollment.id}`);
    // 15 minutes from the moment the bank created it, somewhere between the request and its answer.
    const expiration = Date.parse(enrollment.expiration_datetime ?? '');
    expect(expiration).toBeGreaterThan(started + 14 * 60_000);
    expect(expiration).toBeLessThanOrEqual(answered + 15 * 60_000 + 1_000);
    expect(enrollment.account_info).toEqual({
      ispb: enrollable().ispb,
      branch: '0001',
      number: '123456',
      digit: '7',
      type: 'checking',
      name: 'Ana Souza',
      tax_number: '12345678909',
    });
    expect(webhooksFor(enrollment.id)).toEqual([]);

    const page = await fetch(enrollment.redirect_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(enrollable().name);
  });

  it('takes the reference form of the suggested account', async () => {
    const { enrollment } = await newEnrollment({
      account_branch: '0042',
      account_number: '998877',
      account_digit: '1',
      account_type: 'savings',
    });
    expect(enrollment.account_info).toMatchObject({
      ispb: enrollable().ispb,
      branch: '0042',
      number: '998877',
      digit: '1',
      type: 'savings',
    });
  });

  it('answers the first enrollment for the same request under a repeated external_id, and refuses another', async () => {
    const externalId = randomUUID();
    const { device, enrollment } = await newEnrollment({ external_id: externalId });
    const request = {
      device_id: device.id,
      participant_id: enrollable().id,
      return_to_url: returnToUrl,
      external_id: externalId,
    };
    expect(await bank.createEnrollment(request)).toEqual(enrollment);

    const refused = await rejection(
      bank.createEnrollment({ ...request, return_to_url: 'https://merchant.example/other' }),
    );
    expect(refused.context.status).toBe(409);
    expect(refused.bankCode).toBe('EXTERNAL_ID_IN_USE');
    expect(refused.message).toContain(
      `already names enrollment ${enrollment.id}, created with another return_to_url`,
    );
    expect((await bank.listEnrollments({ device_id: device.id })).data).toHaveLength(1);
  });

  it('scopes an enrollment external_id to its device', async () => {
    const externalId = randomUUID();
    const first = await newEnrollment({ external_id: externalId });
    const second = await newEnrollment({ external_id: externalId });
    expect(second.enrollment.id).not.toBe(first.enrollment.id);
    expect(second.enrollment).toMatchObject({ device_id: second.device.id, external_id: externalId });
  });

  it('refuses a second open enrollment of a device with the same participant', async () => {
    const { device } = await newEnrollment();
    const refused = await rejection(
      bank.createEnrollment({
        device_id: device.id,
        participant_id: enrollable().id,
        return_to_url: returnToUrl,
      }),
    );
    expect(refused.context.status).toBe(409);
    expect(refused.bankCode).toBe('ENROLLMENT_EXISTS');
  });

  it('refuses wrong credentials with 401', async () => {
    await expectUnauthorized(
      wrongBank.createEnrollment({
        device_id: randomUUID(),
        participant_id: randomUUID(),
        return_to_url: returnToUrl,
      }),
    );
  });

  it('names invalid members, unknown records and unavailable participants with pointers', async () => {
    const device = await newDevice();
    expect(
      await validationPointers(
        bank.createEnrollment({
          device_id: device.id,
          participant_id: 'x',
        } as unknown as CreateEnrollmentRequest),
      ),
    ).toEqual(['/participant_id', '/return_to_url']);
    const both = { device_id: device.id, participant_id: enrollable().id, return_to_url: returnToUrl };
    expect(
      await validationPointers(
        bank.createEnrollment({
          ...both,
          account_info: { ispb: '00000000', issuer: '1', number: '2' },
          account_digit: '3',
        }),
      ),
    ).toEqual(['/account_info', '/account_branch', '/account_number']);
    expect(await validationPointers(bank.createEnrollment({ ...both, device_id: randomUUID() }))).toEqual([
      '/device_id',
    ]);
    expect(
      await validationPointers(bank.createEnrollment({ ...both, participant_id: randomUUID() })),
    ).toEqual(['/participant_id']);
    for (const closed of participants().filter((p) => !p.is_enrollment_available)) {
      const error = await failureOf(bank.createEnrollment({ ...both, participant_id: closed.id }));
      expect(error).toBeInstanceOf(BankValidationError);
      expect((error as BankValidationError).errors[0]).toMatchObject({
        title: 'PARTICIPANT_UNAVAILABLE',
        source: { pointer: '/participant_id' },
      });
    }
  });
});

describe('GET /banking/cashin/pix/biometrics/enrollments', () => {
  it("lists a device's enrollments, newest first, with their participant", async () => {
    const { device, enrollment: first } = await newEnrollment();
    await control.post(`/sandbox/biometrics/enrollments/${first.id}/reject`, {});
    await sleep(5);
    const second = await bank.createEnrollment({
      device_id: device.id,
      participant_id: enrollable(1).id,
      return_to_url: returnToUrl,
    });
    const page = await bank.listEnrollments({ device_id: device.id });
    expect(page.data.map((item) => [item.id, item.status])).toEqual([
      [second.id, 'awaiting_account_holder_validation'],
      [first.id, 'rejected'],
    ]);
    expect(page.data[0]?.participant).toEqual(enrollable(1));
    expect(second.external_id).toBeNull();
  });

  it('refuses wrong credentials, a missing device id and an unknown device', async () => {
    await expectUnauthorized(wrongBank.listEnrollments({ device_id: randomUUID() }));
    expect(await validationPointers(bank.listEnrollments({} as { device_id: string }))).toEqual([
      '/query/device_id',
    ]);
    expect(await failureOf(bank.listEnrollments({ device_id: randomUUID() }))).toBeInstanceOf(
      BankNotFoundError,
    );
  });
});

describe('the bank side of an enrollment', () => {
  it('shows the account the customer authorized at the bank when it differs from the suggestion', async () => {
    const suggestion = { ispb: enrollable().ispb, issuer: '0001', number: '111111-1' };
    const { device, enrollment } = await newEnrollment({ account_info: suggestion });
    const authorized = await authorizeAtBank(enrollment.id, { branch: '0002', number: '222222', digit: '2' });
    expect(authorized.status).toBe('awaiting_enrollment');
    expect(authorized.account_info).toMatchObject({ branch: '0002', number: '222222', digit: '2' });

    const listed = (await bank.listEnrollments({ device_id: device.id })).data[0];
    expect(listed?.account_info?.number).not.toBe(enrollment.account_info?.number);
    const [event] = webhooksFor(enrollment.id, 'pix_biometrics_enrollment');
    expect(event).toMatchObject({ type: 'awaiting_enrollment', data: { status: 'awaiting_enrollment' } });
    expect(event?.data.account_info).toMatchObject({ branch: '0002', number: '222222' });
    expect(Date.parse(authorized.expiration_datetime ?? '') - Date.now()).toBeGreaterThan(4 * 60_000);
  });

  it("answers the create with the customer's own account at the bank when none was suggested", async () => {
    const { enrollment } = await newEnrollment();
    expect(enrollment.account_info).toMatchObject({ ispb: enrollable().ispb, tax_number: '12345678909' });
    expect(enrollment.account_info?.number).toMatch(/^\d{7}$/);
    const authorized = await authorizeAtBank(enrollment.id);
    expect(authorized.account_info).toEqual(enrollment.account_info);
  });

  it('rejects, revokes and expires enrollments, each with its webhook, and refuses moves that make no sense', async () => {
    const { enrollment: rejected } = await newEnrollment();
    expect((await control.post(`/sandbox/biometrics/enrollments/${rejected.id}/reject`, {})).status).toBe(
      200,
    );
    const revokeEarly = await control.post<{ errors: { title: string }[] }>(
      `/sandbox/biometrics/enrollments/${rejected.id}/revoke`,
      {},
    );
    expect(revokeEarly.status).toBe(409);
    expect(revokeEarly.body.errors[0]?.title).toBe('INVALID_STATUS');

    const ready = await authorizedEnrollment();
    expect(
      (await control.post(`/sandbox/biometrics/enrollments/${ready.enrollment.id}/revoke`, {})).status,
    ).toBe(200);

    const { enrollment: expiring } = await newEnrollment();
    await authorizeAtBank(expiring.id);
    expect((await control.post(`/sandbox/biometrics/enrollments/${expiring.id}/expire`, {})).status).toBe(
      200,
    );

    expect(webhooksFor(rejected.id).map((event) => event.type)).toEqual(['rejected']);
    expect(webhooksFor(ready.enrollment.id).map((event) => event.type)).toEqual([
      'awaiting_enrollment',
      'authorized',
      'revoked',
    ]);
    expect(webhooksFor(expiring.id).map((event) => event.type)).toEqual(['awaiting_enrollment', 'inactive']);
    const inactive = webhooksFor(expiring.id)[1]?.data as Enrollment;
    expect(inactive.expiration_datetime).toBeNull();

    expect((await control.post(`/sandbox/biometrics/enrollments/${expiring.id}/dance`, {})).status).toBe(404);
    expect((await control.post(`/sandbox/biometrics/enrollments/${randomUUID()}/expire`, {})).status).toBe(
      404,
    );
    expect(
      (await control.post(`/sandbox/biometrics/enrollments/${expiring.id}/bank-authorization`, {})).status,
    ).toBe(409);
    const badAccount = await control.post(
      `/sandbox/biometrics/enrollments/${expiring.id}/bank-authorization`,
      {
        account_info: { number: 7 },
      },
    );
    expect(badAccount.status).toBe(422);
  });

  it('expires an enrollment whose customer never authorizes at the bank', async () => {
    await control.put('/sandbox/biometrics/settings', { account_holder_validation_window_ms: 100 });
    try {
      const { enrollment } = await newEnrollment();
      const event = await eventually(() => webhooksFor(enrollment.id)[0]);
      expect(event).toMatchObject({ category: 'pix_biometrics_enrollment', type: 'inactive' });
      expect(sandbox.state.biometrics.enrollments.get(enrollment.id)?.record.status).toBe('inactive');
    } finally {
      await control.put('/sandbox/biometrics/settings', { account_holder_validation_window_ms: 15 * 60_000 });
    }
  });

  it('lists enrollments for the operator, by device and status', async () => {
    const ready = await authorizedEnrollment();
    const response = await control.get<{ data: Enrollment[] }>(
      `/sandbox/biometrics/enrollments?device_id=${ready.device.id}&status=authorized`,
    );
    expect(response.body.data.map((item) => item.id)).toEqual([ready.enrollment.id]);
    expect(response.body.data[0]?.participant?.id).toBe(ready.enrollment.participant_id);
    expect((await control.get('/sandbox/biometrics/enrollments?status=a&status=b')).status).toBe(422);
  });
});

describe('credential registration', () => {
  it('issues creation options with a fresh challenge, then registers the credential and authorizes', async () => {
    const { enrollment } = await newEnrollment();
    await authorizeAtBank(enrollment.id);
    const first = fidoCreationOptionsSchema.parse(
      JSON.parse((await bank.getRegistrationOptions(enrollment.id)).public_key_encoded),
    );
    const options = await bank.getRegistrationOptions(enrollment.id);
    const creation = fidoCreationOptionsSchema.parse(JSON.parse(options.public_key_encoded));
    expect(creation.challenge).not.toBe(first.challenge);
    expect(creation.rp.id).toBe('localhost');
    expect(Buffer.from(creation.user.id, 'base64url').toString()).toBe(enrollment.id);
    expect(creation.user.displayName).toBe('Ana Souza');

    const authenticator = SoftwareAuthenticator.create();
    const registered = await bank.registerCredential(enrollment.id, {
      fido_assertion: authenticator.createCredential(options.public_key_encoded, sandbox.url),
    });
    expect(registered).toMatchObject({ id: enrollment.id, status: 'authorized', expiration_datetime: null });
    expect(registered.account_info).toMatchObject({ ispb: enrollable().ispb });
    const event = webhooksFor(enrollment.id).at(-1);
    expect(event).toMatchObject({ category: 'pix_biometrics_enrollment', type: 'authorized' });
    expect(enrollmentSchema.parse(event?.data)).toMatchObject({
      id: enrollment.id,
      device_id: enrollment.device_id,
      participant_id: enrollment.participant_id,
      status: 'authorized',
    });

    const again = await rejection(bank.getRegistrationOptions(enrollment.id));
    expect(again.bankCode).toBe('INVALID_STATUS');
  });

  it('refuses a tampered attestation with the reason, and takes a good one afterwards', async () => {
    const { enrollment } = await newEnrollment();
    await authorizeAtBank(enrollment.id);
    const options = await bank.getRegistrationOptions(enrollment.id);
    const authenticator = SoftwareAuthenticator.create();
    const wrongPage = authenticator.createCredential(options.public_key_encoded, 'https://evil.example');
    const error = await failureOf(bank.registerCredential(enrollment.id, { fido_assertion: wrongPage }));
    expect(error).toBeInstanceOf(BankValidationError);
    expect((error as BankValidationError).errors[0]).toMatchObject({
      title: 'INVALID_FIDO_ASSERTION',
      source: { pointer: '/fido_assertion/response/client_data_JSON' },
    });
    expect((error as BankValidationError).errors[0]?.detail).toContain('https://evil.example');

    const good = authenticator.createCredential(options.public_key_encoded, sandbox.url);
    expect((await bank.registerCredential(enrollment.id, { fido_assertion: good })).status).toBe(
      'authorized',
    );
  });

  it('refuses registration before the options, and a credential registered elsewhere', async () => {
    const ready = await authorizedEnrollment();
    const { enrollment } = await newEnrollment();
    await authorizeAtBank(enrollment.id);
    const { enrollment: other } = await newEnrollment();
    await authorizeAtBank(other.id);
    const otherOptions = await bank.getRegistrationOptions(other.id);
    const early = await rejection(
      bank.registerCredential(enrollment.id, {
        fido_assertion: SoftwareAuthenticator.create().createCredential(
          otherOptions.public_key_encoded,
          sandbox.url,
        ),
      }),
    );
    expect(early.bankCode).toBe('REGISTRATION_OPTIONS_NOT_REQUESTED');

    const options = await bank.getRegistrationOptions(enrollment.id);
    const fido = SoftwareAuthenticator.create().createCredential(options.public_key_encoded, sandbox.url);
    const existing = sandbox.state.biometrics.enrollments.get(ready.enrollment.id)?.credentials[0]?.id ?? '';
    const error = await failureOf(
      bank.registerCredential(enrollment.id, { fido_assertion: { ...fido, id: existing, raw_id: existing } }),
    );
    expect((error as BankValidationError).errors[0]).toMatchObject({
      title: 'CREDENTIAL_ALREADY_REGISTERED',
      source: { pointer: '/fido_assertion/id' },
    });
  });

  it('refuses wrong credentials, unknown and malformed enrollments, and malformed bodies', async () => {
    const { enrollment } = await newEnrollment();
    await authorizeAtBank(enrollment.id);
    await expectUnauthorized(wrongBank.getRegistrationOptions(enrollment.id));
    await expectUnauthorized(
      wrongBank.registerCredential(enrollment.id, {} as Parameters<BankClient['registerCredential']>[1]),
    );
    expect(await failureOf(bank.getRegistrationOptions(randomUUID()))).toBeInstanceOf(BankNotFoundError);
    expect(await validationPointers(bank.getRegistrationOptions('not-a-uuid'))).toEqual([
      '/path/enrollment_id',
    ]);
    const pointers = await validationPointers(
      bank.registerCredential(enrollment.id, {
        fido_assertion: {
          id: 'abc',
          raw_id: 'abc',
          type: 'public-key',
          response: { attestation_object: 'x' },
        },
      } as unknown as Parameters<BankClient['registerCredential']>[1]),
    );
    expect(pointers).toEqual(['/fido_assertion/response/client_data_JSON']);
  });
});

describe('biometric payments', () => {
  it('runs the whole journey and announces every step, ending in a Pix cash-in for the same end-to-end id', async () => {
    const device = await newDevice();
    const page = await bank.listParticipants({ device_id: device.id });
    const participant = page.data.find((item) => item.is_enrollment_available && !item.unavailable);
    const created = await bank.createEnrollment({
      device_id: device.id,
      participant_id: participant?.id ?? '',
      return_to_url: returnToUrl,
      external_id: randomUUID(),
    });
    await authorizeAtBank(created.id);
    const authenticator = SoftwareAuthenticator.create();
    const options = await bank.getRegistrationOptions(created.id);
    const enrollment = await bank.registerCredential(created.id, {
      fido_assertion: authenticator.createCredential(options.public_key_encoded, sandbox.url),
    });
    const ready: Ready = { device, enrollment, authenticator };
    expect((await bank.listParticipants({ device_id: device.id })).data[0]?.['enrolled?']).toBe(true);

    const payment = await newPayment(enrollment.id, 12_345);
    expect(biometricPaymentSchema.parse(payment)).toEqual(payment);
    expect(payment).toMatchObject({
      status: 'created',
      amount: { amount: 12_345, currency: 'BRL' },
      end_to_end_id: null,
      transaction_date: null,
      ref_type: 'enrollment',
      ref_id: enrollment.id,
      participant_id: participant?.id,
      entity_id: world().entityIds[0],
    });

    const requestOptions = await bank.getPaymentAuthorizationOptions(enrollment.id, payment.id);
    const request = fidoRequestOptionsSchema.parse(JSON.parse(requestOptions.public_key_encoded));
    const stored = sandbox.state.biometrics.enrollments.get(enrollment.id)?.credentials[0];
    expect(request.allowCredentials).toEqual([{ id: stored?.id, type: 'public-key' }]);
    expect(request.rpId).toBe('localhost');
    const waiting = await bank.getBiometricPayment(enrollment.id, payment.id);
    expect(waiting.status).toBe('awaiting_consent');
    expect(waiting.consent_id).toEqual(expect.any(String));

    const fido = authenticator.getAssertion(requestOptions.public_key_encoded, sandbox.url);
    const authorized = await bank.authorizeBiometricPayment(enrollment.id, payment.id, {
      fido_assertion: fido,
      riskSignals: null,
    });
    expect(authorized.status).toBe('awaiting_payment');
    expect(authorized.end_to_end_id).toMatch(endToEndIdPattern);
    expect(authorized.end_to_end_id?.slice(1, 9)).toBe(participant?.ispb);

    const final = await settled(ready, payment.id);
    expect(final.status).toBe('settled');
    expect(final.transaction_date).toBe(new Date().toISOString().slice(0, 10));
    expect(final.end_to_end_id).toBe(authorized.end_to_end_id);

    const events = webhooksFor(payment.id, 'initiation_document');
    expect(events.map((event) => event.type)).toEqual([
      'created',
      'awaiting_consent',
      'awaiting_payment',
      'settled',
    ]);
    for (const event of events) {
      const data = biometricPaymentSchema.parse(event.data);
      expect(data.status).toBe(event.type);
      expect(data).toMatchObject({
        ref_id: enrollment.id,
        ref_type: 'enrollment',
        participant_id: participant?.id,
      });
      expect(event.context_id).toBe(enrollment.id);
    }
    expect(events[3]?.data).toEqual(final);
    const cashIn = sandbox.webhooks.published.find(
      (event) => event.category === 'collecting_document' && event.data.end_to_end_id === final.end_to_end_id,
    );
    expect(cashIn?.type).toBe('settled');
    expect(collectingDocumentSchema.parse(cashIn?.data)).toMatchObject({
      status: 'settled',
      amount: { amount: 12_345, currency: 'BRL' },
      transaction_date: final.transaction_date,
      virtual_account_id: final.virtual_account_id,
    });
    expect(await authorizeCalls(payment.id)).toEqual({
      payment_id: payment.id,
      enrollment_id: enrollment.id,
      successful: 1,
      refused: 0,
    });
  });

  it('refuses a tampered signature, authorizes the retry, and refuses replaying it', async () => {
    const ready = await authorizedEnrollment();
    const payment = await newPayment(ready.enrollment.id);
    const options = await bank.getPaymentAuthorizationOptions(ready.enrollment.id, payment.id);
    const tampered = tamperedSignature(
      ready.authenticator.getAssertion(options.public_key_encoded, sandbox.url),
    );
    const error = await failureOf(
      bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, { fido_assertion: tampered }),
    );
    expect(error).toBeInstanceOf(BankValidationError);
    expect((error as BankValidationError).errors[0]?.source?.pointer).toBe(
      '/fido_assertion/response/signature',
    );

    const good = ready.authenticator.getAssertion(options.public_key_encoded, sandbox.url);
    const authorized = await bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, {
      fido_assertion: good,
    });
    expect(authorized.status).toBe('awaiting_payment');

    const replay = await rejection(
      bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, { fido_assertion: good }),
    );
    expect(replay.context.status).toBe(409);
    expect(replay.bankCode).toBe('PAYMENT_ALREADY_AUTHORIZED');

    const next = await newPayment(ready.enrollment.id);
    await bank.getPaymentAuthorizationOptions(ready.enrollment.id, next.id);
    const elsewhere = await failureOf(
      bank.authorizeBiometricPayment(ready.enrollment.id, next.id, { fido_assertion: good }),
    );
    expect((elsewhere as BankValidationError).errors[0]?.detail).toMatch(/challenge/);

    expect(await authorizeCalls(payment.id)).toMatchObject({ successful: 1, refused: 2 });
    expect(await authorizeCalls(next.id)).toMatchObject({ successful: 0, refused: 1 });
  });

  it('refuses an assertion whose counter did not move past one already used', async () => {
    const ready = await authorizedEnrollment();
    const first = await newPayment(ready.enrollment.id);
    const second = await newPayment(ready.enrollment.id);
    const older = await assertionFor(ready, first.id);
    const newer = await assertionFor(ready, second.id);
    await bank.authorizeBiometricPayment(ready.enrollment.id, second.id, { fido_assertion: newer });
    const error = await failureOf(
      bank.authorizeBiometricPayment(ready.enrollment.id, first.id, { fido_assertion: older }),
    );
    expect((error as BankValidationError).errors[0]?.detail).toMatch(/counter did not increase/);
  });

  it('lets only one of two concurrent valid assertions authorize a payment', async () => {
    const ready = await authorizedEnrollment();
    const payment = await newPayment(ready.enrollment.id);
    const options = await bank.getPaymentAuthorizationOptions(ready.enrollment.id, payment.id);
    const assertions = [1, 2].map(() =>
      ready.authenticator.getAssertion(options.public_key_encoded, sandbox.url),
    );
    const outcomes = await Promise.allSettled(
      assertions.map((fido) =>
        bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, { fido_assertion: fido }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await authorizeCalls(payment.id)).toMatchObject({ successful: 1, refused: 1 });
    expect(webhooksFor(payment.id).filter((event) => event.type === 'awaiting_payment')).toHaveLength(1);
  });

  it('refuses authorization before the options were fetched, and with an unknown credential', async () => {
    const ready = await authorizedEnrollment();
    const other = await authorizedEnrollment();
    const payment = await newPayment(ready.enrollment.id);
    const strangerPayment = await newPayment(other.enrollment.id);
    const stranger = await assertionFor(other, strangerPayment.id);
    const early = await rejection(
      bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, { fido_assertion: stranger }),
    );
    expect(early.bankCode).toBe('AUTHORIZATION_OPTIONS_NOT_REQUESTED');

    await bank.getPaymentAuthorizationOptions(ready.enrollment.id, payment.id);
    const error = await failureOf(
      bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, { fido_assertion: stranger }),
    );
    expect((error as BankValidationError).errors[0]).toMatchObject({
      title: 'UNKNOWN_CREDENTIAL',
      source: { pointer: '/fido_assertion/id' },
    });
  });

  it('closes the consent window: authorize is refused and the payment is rejected', async () => {
    const ready = await authorizedEnrollment();
    // Long enough for the options to be fetched within it on a loaded machine; the test then waits it out.
    const consentWindowMs = 2_000;
    await control.put('/sandbox/biometrics/settings', { consent_window_ms: consentWindowMs });
    try {
      const createdAt = Date.now();
      const payment = await newPayment(ready.enrollment.id);
      const fido = await assertionFor(ready, payment.id);
      await sleep(Math.max(0, createdAt + consentWindowMs + 100 - Date.now()));
      const refused = await rejection(
        bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, { fido_assertion: fido }),
      );
      expect(refused.bankCode).toBe('CONSENT_EXPIRED');
      expect((await bank.getBiometricPayment(ready.enrollment.id, payment.id)).status).toBe('rejected');
      expect(webhooksFor(payment.id).map((event) => event.type)).toEqual([
        'created',
        'awaiting_consent',
        'rejected',
      ]);
      const optionsAfter = await rejection(
        bank.getPaymentAuthorizationOptions(ready.enrollment.id, payment.id),
      );
      expect(optionsAfter.bankCode).toBe('CONSENT_EXPIRED');

      const unattended = await newPayment(ready.enrollment.id);
      const event = await eventually(() =>
        webhooksFor(unattended.id).find((item) => item.type === 'rejected'),
      );
      expect(event.data.status).toBe('rejected');
    } finally {
      await control.put('/sandbox/biometrics/settings', { consent_window_ms: 5 * 60_000 });
    }
  });

  it.each([
    [1_091, 'failed'],
    [1_092, 'rejected'],
    [1_093, 'settled'],
  ])('answers an amount of %i cents with %s', async (amount, outcome) => {
    const ready = await authorizedEnrollment();
    const payment = await newPayment(ready.enrollment.id, amount);
    await bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, {
      fido_assertion: await assertionFor(ready, payment.id),
    });
    const final = await settled(ready, payment.id);
    expect(final.status).toBe(outcome);
    expect(webhooksFor(payment.id).at(-1)?.type).toBe(outcome);
    const cashIns = sandbox.webhooks.published.filter(
      (event) => event.category === 'collecting_document' && event.data.end_to_end_id === final.end_to_end_id,
    );
    expect(cashIns).toHaveLength(outcome === 'settled' ? 1 : 0);
    expect(final.transaction_date === null).toBe(outcome !== 'settled');
  });

  it('leaves settlement to the control API when the delay is null', async () => {
    const ready = await authorizedEnrollment();
    const settings = await control.put<{ data: { settlement_delay_ms: number | null } }>(
      '/sandbox/biometrics/settings',
      { settlement_delay_ms: null },
    );
    expect(settings.body.data.settlement_delay_ms).toBeNull();
    try {
      const payment = await newPayment(ready.enrollment.id);
      await bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, {
        fido_assertion: await assertionFor(ready, payment.id),
      });
      await sleep(150);
      expect((await bank.getBiometricPayment(ready.enrollment.id, payment.id)).status).toBe(
        'awaiting_payment',
      );
      const waiting = await control.get<{ data: BiometricPayment[] }>(
        `/sandbox/biometrics/payments?enrollment_id=${ready.enrollment.id}&status=awaiting_payment`,
      );
      expect(waiting.body.data.map((item) => item.id)).toEqual([payment.id]);

      expect((await control.post(`/sandbox/biometrics/payments/${payment.id}/settle`, {})).status).toBe(200);
      expect((await bank.getBiometricPayment(ready.enrollment.id, payment.id)).status).toBe('settled');
      expect((await control.post(`/sandbox/biometrics/payments/${payment.id}/fail`, {})).status).toBe(409);

      const unpaid = await newPayment(ready.enrollment.id);
      expect((await control.post(`/sandbox/biometrics/payments/${unpaid.id}/settle`, {})).status).toBe(409);
      expect((await control.post(`/sandbox/biometrics/payments/${unpaid.id}/reject`, {})).status).toBe(200);
      expect((await control.post(`/sandbox/biometrics/payments/${unpaid.id}/refund`, {})).status).toBe(404);
      expect((await control.post(`/sandbox/biometrics/payments/${randomUUID()}/settle`, {})).status).toBe(
        404,
      );
    } finally {
      await control.put('/sandbox/biometrics/settings', { settlement_delay_ms: 50 });
    }
  });

  it('answers the first payment for the same request under a repeated external_id, and refuses another', async () => {
    const ready = await authorizedEnrollment();
    const externalId = randomUUID();
    const first = await newPayment(ready.enrollment.id, 500, externalId);
    expect(await newPayment(ready.enrollment.id, 500, externalId)).toEqual(first);

    const refused = await rejection(newPayment(ready.enrollment.id, 999, externalId));
    expect(refused.context.status).toBe(409);
    expect(refused.bankCode).toBe('EXTERNAL_ID_IN_USE');
    expect(refused.message).toContain(`already names payment ${first.id}, created with another amount`);
    expect(webhooksFor(first.id).filter((event) => event.type === 'created')).toHaveLength(1);
    const stored = [...sandbox.state.biometrics.payments.values()].filter(
      (payment) => payment.record.external_id === externalId,
    );
    expect(stored).toHaveLength(1);
  });

  it('scopes a payment external_id to its enrollment', async () => {
    const externalId = randomUUID();
    const first = await newPayment((await authorizedEnrollment()).enrollment.id, 500, externalId);
    const other = await authorizedEnrollment();
    const second = await newPayment(other.enrollment.id, 500, externalId);
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ ref_id: other.enrollment.id, external_id: externalId });
  });

  it('refuses payments on an enrollment that is not authorized, and unknown accounts', async () => {
    const { enrollment } = await newEnrollment();
    const refused = await rejection(newPayment(enrollment.id));
    expect(refused.bankCode).toBe('ENROLLMENT_NOT_AUTHORIZED');

    const ready = await authorizedEnrollment();
    const base = {
      entity_id: world().entityIds[0] as string,
      virtual_account_id: world().virtualAccountIds[0] as string,
      amount: 100,
      description: 'Pedido',
    };
    expect(
      await validationPointers(
        bank.createBiometricPayment(ready.enrollment.id, { ...base, entity_id: randomUUID() }),
      ),
    ).toEqual(['/entity_id']);
    expect(
      await validationPointers(
        bank.createBiometricPayment(ready.enrollment.id, { ...base, virtual_account_id: randomUUID() }),
      ),
    ).toEqual(['/virtual_account_id']);
    expect(
      await validationPointers(
        bank.createBiometricPayment(ready.enrollment.id, { ...base, amount: 10.5, description: '' }),
      ),
    ).toEqual(['/amount', '/description']);
    expect(
      await validationPointers(
        bank.createBiometricPayment(ready.enrollment.id, { ...base, description: 'x'.repeat(141) }),
      ),
    ).toEqual(['/description']);
    const longest = await bank.createBiometricPayment(ready.enrollment.id, {
      ...base,
      description: 'ç'.repeat(140),
    });
    expect(longest.description).toHaveLength(140);

    const payment = await newPayment(ready.enrollment.id);
    await control.post(`/sandbox/biometrics/enrollments/${ready.enrollment.id}/revoke`, {});
    const revoked = await rejection(bank.getPaymentAuthorizationOptions(ready.enrollment.id, payment.id));
    expect(revoked.bankCode).toBe('ENROLLMENT_NOT_AUTHORIZED');
  });

  it('refuses wrong credentials on every payment endpoint', async () => {
    const ready = await authorizedEnrollment();
    const payment = await newPayment(ready.enrollment.id);
    const fido = await assertionFor(ready, payment.id);
    await expectUnauthorized(wrongBank.createBiometricPayment(ready.enrollment.id, {} as never));
    await expectUnauthorized(wrongBank.getBiometricPayment(ready.enrollment.id, payment.id));
    await expectUnauthorized(wrongBank.getPaymentAuthorizationOptions(ready.enrollment.id, payment.id));
    await expectUnauthorized(
      wrongBank.authorizeBiometricPayment(ready.enrollment.id, payment.id, { fido_assertion: fido }),
    );
    expect(await authorizeCalls(payment.id)).toMatchObject({ successful: 0, refused: 0 });
  });

  it('finds a payment only under its own enrollment, and names malformed authorize bodies', async () => {
    const ready = await authorizedEnrollment();
    const other = await authorizedEnrollment();
    const payment = await newPayment(ready.enrollment.id);
    expect(await failureOf(bank.getBiometricPayment(other.enrollment.id, payment.id))).toBeInstanceOf(
      BankNotFoundError,
    );
    expect(await failureOf(bank.getBiometricPayment(ready.enrollment.id, randomUUID()))).toBeInstanceOf(
      BankNotFoundError,
    );
    expect(await failureOf(bank.createBiometricPayment(randomUUID(), {} as never))).toBeInstanceOf(
      BankNotFoundError,
    );
    expect(await validationPointers(bank.getBiometricPayment(ready.enrollment.id, 'nope'))).toEqual([
      '/path/payment_id',
    ]);
    expect(
      await failureOf(bank.getPaymentAuthorizationOptions(ready.enrollment.id, randomUUID())),
    ).toBeInstanceOf(BankNotFoundError);
    const pointers = await validationPointers(
      bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, {
        fido_assertion: { id: 'a', raw_id: 'a', type: 'public-key' },
      } as unknown as Parameters<BankClient['authorizeBiometricPayment']>[2]),
    );
    expect(pointers).toEqual(['/fido_assertion/response']);
    const riskSignalsText = await validationPointers(
      bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, {
        fido_assertion: await assertionFor(ready, payment.id),
        riskSignals: 'low',
      } as unknown as Parameters<BankClient['authorizeBiometricPayment']>[2]),
    );
    expect(riskSignalsText).toEqual(['/riskSignals']);
    const guideSpelling = await assertionFor(ready, payment.id);
    const { client_data_JSON, ...response } = guideSpelling.response;
    const authorized = await bank.authorizeBiometricPayment(ready.enrollment.id, payment.id, {
      fido_assertion: { ...guideSpelling, response: { ...response, client_data_json: client_data_JSON } },
    } as unknown as Parameters<BankClient['authorizeBiometricPayment']>[2]);
    expect(authorized.status).toBe('awaiting_payment');
    const audit = await control.get<{ data: { payment_id: string; refused: number }[] }>(
      '/sandbox/biometrics/authorize-calls',
    );
    expect(audit.body.data.find((item) => item.payment_id === payment.id)).toMatchObject({ refused: 2 });
    expect((await control.get(`/sandbox/biometrics/payments/${randomUUID()}/authorize-calls`)).status).toBe(
      404,
    );
  });
});

describe('sandbox settings and reset', () => {
  it('validates settings, and a reset restores the seeded state and the configured clocks', async () => {
    const invalid = await control.put<{ errors: { source: { pointer: string } }[] }>(
      '/sandbox/biometrics/settings',
      {
        consent_window_ms: -1,
        surprise: true,
      },
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((item) => item.source.pointer).sort()).toEqual([
      '/',
      '/consent_window_ms',
    ]);

    const scratch = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed: 42,
      credentials,
      logger,
      biometrics: { consentWindowMs: 1_234 },
      webauthn: { origins: ['https://shop.example'] },
    });
    try {
      expect(scratch.webauthn.origins).toEqual(['https://shop.example']);
      const scratchControl = sandboxControl(scratch.url);
      await scratchControl.put('/sandbox/biometrics/settings', {
        consent_window_ms: 99,
        registration_window_ms: 5,
      });
      const scratchBank = new BankClient({ ...credentials, timeoutMs: 5_000, baseUrl: scratch.url }, logger);
      await scratchBank.findOrCreateDevice({ fingerprint: 'f', counterparty_tax_number: '12345678909' });
      expect(scratch.state.biometrics.devices.size).toBe(1);
      await scratchControl.post('/sandbox/reset', {});
      expect(scratch.state.biometrics.devices.size).toBe(0);
      expect(scratch.state.biometrics.participants).toEqual(participants());
      const settings = await scratchControl.get<{ data: Record<string, number> }>(
        '/sandbox/biometrics/settings',
      );
      expect(settings.body.data).toMatchObject({
        consent_window_ms: 1_234,
        registration_window_ms: 5 * 60_000,
      });
    } finally {
      await scratch.stop();
    }
  });

  it('trusts the pages of the sandbox itself as WebAuthn origins', () => {
    const port = new URL(sandbox.url).port;
    expect(sandbox.webauthn.origins).toEqual(
      expect.arrayContaining([sandbox.url, `http://localhost:${port}`]),
    );
  });
});

describe('biometrics activities', () => {
  it('wrap each client call and turn refusals into typed failures', async () => {
    const activities = createBankCallActivities(bank);
    const device = await bank.findOrCreateDevice({
      fingerprint: randomUUID(),
      counterparty_tax_number: '12345678909',
    });
    const participant = (await bank.listParticipants()).data.find((item) => item.is_enrollment_available);
    const enrollment = await activities.createEnrollment({
      device_id: device.id,
      participant_id: participant?.id ?? '',
      return_to_url: returnToUrl,
    });
    expect((await activities.listEnrollments({ device_id: device.id })).data[0]?.id).toBe(enrollment.id);
    await authorizeAtBank(enrollment.id);
    const authenticator = SoftwareAuthenticator.create();
    const creation = await activities.getRegistrationOptions(enrollment.id);
    await activities.registerCredential(enrollment.id, {
      fido_assertion: authenticator.createCredential(creation.public_key_encoded, sandbox.url),
    });
    const payment = await activities.createBiometricPayment(enrollment.id, {
      entity_id: world().entityIds[1] as string,
      virtual_account_id: world().virtualAccountIds[2] as string,
      amount: 2_500,
      description: 'Assinatura',
    });
    const request = await activities.getPaymentAuthorizationOptions(enrollment.id, payment.id);
    const authorized = await activities.authorizeBiometricPayment(enrollment.id, payment.id, {
      fido_assertion: authenticator.getAssertion(request.public_key_encoded, sandbox.url),
    });
    expect(authorized.status).toBe('awaiting_payment');
    expect((await activities.getBiometricPayment(enrollment.id, payment.id)).id).toBe(payment.id);

    const failure = await failureOf(
      activities.authorizeBiometricPayment(enrollment.id, payment.id, {
        fido_assertion: authenticator.getAssertion(request.public_key_encoded, sandbox.url),
      }),
    );
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect((failure as ApplicationFailure).type).toBe('BankRequestRejected');
    expect(nonRetryableBankErrorTypes).toContain('BankRequestRejected');
  });
});

import { randomUUID } from 'node:crypto';
import { BankClient } from '../../src/bank/client.js';
import { BankValidationError } from '../../src/bank/errors.js';
import type { AuthorizeFidoAssertion, RegisterFidoAssertion } from '../../src/bank/schemas/index.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import { authorizeAtSandboxBank, createSandboxEnrollment } from '../helpers/sandbox-enrollments.js';

const credentials = { clientId: 'test-client', clientSecret: 'test-secret' };
const controlToken = 'authenticators-test-token';
let sandbox: RunningSandbox;
let bank: BankClient;

beforeAll(async () => {
  sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: 42,
    credentials,
    logger: createLogger('silent'),
    biometrics: { settlementDelayMs: 50 },
    access: { controlToken },
  });
  bank = new BankClient({ ...credentials, timeoutMs: 5_000, baseUrl: sandbox.url }, createLogger('silent'));
});

afterAll(async () => {
  await sandbox?.stop();
});

/** The control API as a backend in another language calls it: plain HTTP with the bearer token. */
async function control<T>(path: string, body: unknown, token: string | null = controlToken) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const newAuthenticator = async () =>
  (await control<{ data: { id: string } }>('/sandbox/authenticators', {})).body.data.id;

async function authorizedAtBank() {
  const { enrollment } = await createSandboxEnrollment(bank, sandbox, 'https://merchant.example/done');
  expect(await authorizeAtSandboxBank(sandbox, enrollment.id)).toBe('awaiting_enrollment');
  return enrollment;
}

describe('/sandbox/authenticators: the customer device over HTTP', () => {
  it('registers a credential and authorizes a payment the bank accepts, all over HTTP', async () => {
    const enrollment = await authorizedAtBank();
    const authenticator = await newAuthenticator();
    const creation = await bank.getRegistrationOptions(enrollment.id);
    const credential = await control<{ data: RegisterFidoAssertion }>(
      `/sandbox/authenticators/${authenticator}/credentials`,
      { public_key_encoded: creation.public_key_encoded },
    );
    expect(credential.status).toBe(200);
    const registered = await bank.registerCredential(enrollment.id, { fido_assertion: credential.body.data });
    expect(registered.status).toBe('authorized');

    const payment = await bank.createBiometricPayment(enrollment.id, {
      entity_id: sandbox.state.world.entityIds[0] as string,
      virtual_account_id: sandbox.state.world.virtualAccountIds[0] as string,
      amount: 1_050,
      description: 'Pedido 1234',
      external_id: randomUUID(),
    });
    const request = await bank.getPaymentAuthorizationOptions(enrollment.id, payment.id);
    const assertion = await control<{ data: AuthorizeFidoAssertion }>(
      `/sandbox/authenticators/${authenticator}/assertions`,
      { public_key_encoded: request.public_key_encoded },
    );
    expect(assertion.status).toBe(200);
    const authorized = await bank.authorizeBiometricPayment(enrollment.id, payment.id, {
      fido_assertion: assertion.body.data,
      riskSignals: null,
    });
    expect(authorized.status).toBe('awaiting_payment');
  });

  it('signs for the origin it is given, which the bank then refuses', async () => {
    const enrollment = await authorizedAtBank();
    const authenticator = await newAuthenticator();
    const creation = await bank.getRegistrationOptions(enrollment.id);
    const credential = await control<{ data: RegisterFidoAssertion }>(
      `/sandbox/authenticators/${authenticator}/credentials`,
      { public_key_encoded: creation.public_key_encoded, origin: 'https://evil.example' },
    );
    const refusal = await bank
      .registerCredential(enrollment.id, { fido_assertion: credential.body.data })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refusal).toBeInstanceOf(BankValidationError);
    expect((refusal as BankValidationError).errors[0]?.detail).toContain('https://evil.example');
  });

  it('names what is wrong: an unknown authenticator, options it cannot use, a missing member, no token', async () => {
    const unknown = await control<{ errors: { detail: string }[] }>(
      `/sandbox/authenticators/${randomUUID()}/assertions`,
      { public_key_encoded: 'e30' },
    );
    expect(unknown.status).toBe(404);

    const authenticator = await newAuthenticator();
    const noCredential = await control<{ errors: { detail: string; source: { pointer: string } }[] }>(
      `/sandbox/authenticators/${authenticator}/assertions`,
      { public_key_encoded: Buffer.from('not json').toString('base64url') },
    );
    expect(noCredential.status).toBe(422);
    expect(noCredential.body.errors[0]?.source.pointer).toBe('/public_key_encoded');

    const missing = await control<{ errors: { source: { pointer: string } }[] }>(
      `/sandbox/authenticators/${authenticator}/credentials`,
      {},
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((error) => error.source.pointer)).toEqual(['/public_key_encoded']);

    expect((await control('/sandbox/authenticators', {}, null)).status).toBe(401);
    expect((await control('/sandbox/authenticators', {}, 'wrong')).status).toBe(401);
  });

  it('forgets its devices on a reset', async () => {
    const authenticator = await newAuthenticator();
    const reset = await control('/sandbox/reset', {});
    expect(reset.status).toBe(200);
    const after = await control(`/sandbox/authenticators/${authenticator}/assertions`, {
      public_key_encoded: 'e30',
    });
    expect(after.status).toBe(404);
  });
});

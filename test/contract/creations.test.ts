import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import { createBiometricPaymentRequestSchema } from '../../src/bank/schemas/biometric-payment-request.js';
import { generateRecurrenceRequestSchema } from '../../src/bank/schemas/recurrence.js';
import { exampleRecurrenceRequest } from '../../devkit/sandbox/examples/recurrence-request.js';
import { InvalidInputError, startPayment } from '../../src/starter/index.js';
import { sandboxControl } from '../helpers/sandbox-control.js';
import { failureOf, startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';

/** 140 UTF-16 code units (JSON string length) in 70 code points, and one emoji more: 142 units in 71. */
const seventyEmoji = '😀'.repeat(70);
const seventyOneEmoji = '😀'.repeat(71);

describe('creations at the sandbox bank: status, and text measured as JSON string length', () => {
  let bank: DataSandbox;
  let enrollmentId: string;

  const world = () => bank.sandbox.state.world;
  const paymentBody = (description: string) => ({
    entity_id: world().entityIds[0],
    virtual_account_id: world().virtualAccountIds[0],
    amount: 1_050,
    description,
    external_id: randomUUID(),
  });
  const recurrenceBody = () =>
    exampleRecurrenceRequest({
      // The example derives the contract number (at most 35 characters) from it.
      externalId: `creation-${randomUUID().slice(0, 8)}`,
      virtualAccountId: world().virtualAccountIds[1]!,
      amountCents: 1_990,
    });
  const post = (path: string, body: unknown) => bank.raw(path, { method: 'POST', body });
  const paymentsPath = () => `/banking/cashin/pix/biometrics/enrollments/${enrollmentId}/payments`;

  beforeAll(async () => {
    bank = await startDataSandbox();
    const device = await bank.bank.findOrCreateDevice({
      fingerprint: randomUUID(),
      counterparty_tax_number: '12345678909',
    });
    const participant = bank.sandbox.state.biometrics.participants.find((p) => p.is_enrollment_available)!;
    const enrollment = await bank.bank.createEnrollment({
      device_id: device.id,
      participant_id: participant.id,
      return_to_url: 'https://merchant.example/done',
      external_id: randomUUID(),
    });
    const authorized = await sandboxControl(bank.sandbox.url).post(
      `/sandbox/biometrics/enrollments/${enrollment.id}/bank-authorization`,
      {},
    );
    expect(authorized.status).toBe(200);
    const options = await bank.bank.getRegistrationOptions(enrollment.id);
    await bank.bank.registerCredential(enrollment.id, {
      fido_assertion: SoftwareAuthenticator.create().createCredential(
        options.public_key_encoded,
        bank.sandbox.url,
      ),
    });
    enrollmentId = enrollment.id;
  });
  afterAll(async () => {
    await bank?.stop();
  });

  it('answers every creation with 200, a repeated one too, as the spec shows no other success code', async () => {
    const device = { fingerprint: randomUUID(), counterparty_tax_number: '12345678909' };
    const recurrence = recurrenceBody();
    const payment = paymentBody('Pedido 1234');
    const answers = [
      await post('/biometrics/devices', device),
      await post('/biometrics/devices', device),
      await post('/banking/cashin/pix/recurrences', recurrence),
      await post('/banking/cashin/pix/recurrences', recurrence),
      await post(paymentsPath(), payment),
      await post(paymentsPath(), payment),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers[3]!.json()).toEqual(answers[2]!.json());
    expect(answers[5]!.json()).toEqual(answers[4]!.json());
  });

  it('takes a payment description of 140 UTF-16 units (70 emoji) and refuses 142 (71 emoji) with a 422 at /description', async () => {
    const taken = await post(paymentsPath(), paymentBody(seventyEmoji));
    expect(taken.statusCode).toBe(200);
    expect(taken.json().data.description).toBe(seventyEmoji);
    for (const description of [seventyOneEmoji, `${'a'.repeat(139)}😀`]) {
      const refused = await post(paymentsPath(), paymentBody(description));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual([
        expect.objectContaining({
          source: { pointer: '/description' },
          detail: expect.stringMatching(/140/),
        }),
      ]);
    }
  });

  it("counts a recurrence's description and payer name the same way", async () => {
    const base = recurrenceBody();
    expect(
      (await post('/banking/cashin/pix/recurrences', { ...base, description: seventyEmoji })).statusCode,
    ).toBe(200);
    const refused = await post('/banking/cashin/pix/recurrences', {
      ...recurrenceBody(),
      description: seventyOneEmoji,
      counterparty: { ...base.counterparty, name: seventyOneEmoji },
    });
    expect(refused.statusCode).toBe(422);
    expect(
      refused
        .json()
        .errors.map((item: { source: { pointer: string } }) => item.source.pointer)
        .sort(),
    ).toEqual(['/counterparty/name', '/description']);
  });

  it('measures text in the client schemas and the starter as the sandbox does, before anything is sent', async () => {
    const payment = paymentBody(seventyOneEmoji);
    expect(createBiometricPaymentRequestSchema.safeParse(payment).error?.issues[0]?.path).toEqual([
      'description',
    ]);
    expect(createBiometricPaymentRequestSchema.safeParse(paymentBody(seventyEmoji)).success).toBe(true);
    const recurrence = { ...recurrenceBody(), description: seventyOneEmoji };
    expect(generateRecurrenceRequestSchema.safeParse(recurrence).error?.issues[0]?.path).toEqual([
      'description',
    ]);

    // A client that is never connected: the starter refuses the input before it calls Temporal.
    const client = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
    const refused = await failureOf(
      startPayment(
        { client, taskQueue: 'creations-test' },
        {
          enrollmentId,
          deviceId: randomUUID(),
          amountCents: 1_050,
          description: seventyOneEmoji,
          entityId: world().entityIds[0]!,
          virtualAccountId: world().virtualAccountIds[0]!,
        },
      ),
    );
    expect(refused).toBeInstanceOf(InvalidInputError);
    expect(refused.message).toMatch(
      /description: must be at most 140 characters counted as JSON string length/,
    );
  });
});

import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import type { BankClient } from '../../src/bank/client.js';
import { answerSchema } from '../../src/bank/resource.js';
import { bankEndpoints } from '../../src/bank/resources/index.js';
import { type DataSandbox, fixedNow } from '../helpers/data-sandbox.js';
import { sandboxControl } from '../helpers/sandbox-control.js';

type Body = Record<string, unknown>;

/**
 * One BankClient method, a valid response body for it taken from the sandbox, and what the method answers.
 */
export interface ResponseCase {
  method: string;
  /** The valid body as it travels: JSON. */
  body: Body;
  /** The schema the client parses this response with. */
  schema: z.ZodType;
  call(bank: BankClient): Promise<unknown>;
  /** What the method answers when the stub serves `body` (a single record, one page, or every record). */
  answer(body: Body): unknown;
}

const onlyPage = { before: null, after: null, has_next: false };
const record = (body: Body) => body.data;
const page = (body: Body) => ({ data: body.data, metadata: body.metadata ?? onlyPage });

async function drain<T>(records: AsyncGenerator<T, void, undefined>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of records) all.push(item);
  return all;
}

/** A list response of a few records and no next page, so an `all` method stops after one request. */
const lastPage = (data: unknown[]) => ({
  data: data.slice(0, 3),
  metadata: { ...onlyPage, before: 'Y3Vyc29y' },
});
const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as Body;

const window = { from_datetime: '2025-01-01T00:00:00Z', to_datetime: '2025-07-01T00:00:00Z' };
const id = randomUUID();

/**
 * A real response for every BankClient method, read from a seeded sandbox (biometric ones by playing a whole
 * journey with a software authenticator), then served back to the client from a stub.
 */
export async function responseCases(data: DataSandbox): Promise<ResponseCase[]> {
  const { bank, sandbox } = data;
  const { world, bankData } = sandbox.state;
  const entityId = world.entityIds[0] as string;
  const card = [...bankData.cards.values()][0];
  const purchase = [...bankData.purchasesByEndToEndId.values()][0];
  const boletoId = [...sandbox.state.boletos.keys()][0];
  if (!card || !purchase || !boletoId) throw new Error('the sandbox seeded no card, purchase or boleto');
  const metricsQuery = { bank_account_id: world.bankAccountIds[0] as string, ...window };

  const device = await bank.findOrCreateDevice({
    fingerprint: `fuzz-${id}`,
    counterparty_tax_number: '12345678909',
  });
  const participant = (await bank.listParticipants()).data.find(
    (p) => p.is_enrollment_available && !p.unavailable,
  );
  if (!participant) throw new Error('the sandbox has no participant open for enrollment');
  const enrollmentRequest = {
    device_id: device.id,
    participant_id: participant.id,
    return_to_url: 'https://merchant.example/back',
    external_id: `fuzz-${id}`,
  };
  const enrollment = await bank.createEnrollment(enrollmentRequest);
  await sandboxControl(sandbox.url).post(
    `/sandbox/biometrics/enrollments/${enrollment.id}/bank-authorization`,
    {},
  );
  const authenticator = SoftwareAuthenticator.create();
  const registrationOptions = await bank.getRegistrationOptions(enrollment.id);
  const registration = {
    fido_assertion: authenticator.createCredential(registrationOptions.public_key_encoded, sandbox.url),
  };
  const registered = await bank.registerCredential(enrollment.id, registration);
  const paymentRequest = {
    entity_id: entityId,
    virtual_account_id: world.virtualAccountIds[0] as string,
    amount: 1_050,
    description: 'Pedido 1234',
    external_id: `fuzz-${id}`,
  };
  const payment = await bank.createBiometricPayment(enrollment.id, paymentRequest);
  const paymentOptions = await bank.getPaymentAuthorizationOptions(enrollment.id, payment.id);
  const authorization = {
    fido_assertion: authenticator.getAssertion(paymentOptions.public_key_encoded, sandbox.url),
  };
  const authorized = await bank.authorizeBiometricPayment(enrollment.id, payment.id, authorization);
  const recurrenceRequest = {
    counterparty: {
      name: 'Maria Souza',
      tax_number: '12345678901',
      bank_account: { branch: '0001', digit: '7', ispb: '18236120', number: '1234567' },
    },
    external_id: `fuzz-${id}`,
    periodicity: 'mnth' as const,
    start_date: fixedNow.toISOString(),
    virtual_account_id: world.virtualAccountIds[1] as string,
    amounts: { minimum: 1_990 },
  };
  const attempts = await bank.listCollectionAttempts({});
  const attemptId = attempts.data[0]?.id as string;

  const singles: [string, z.ZodType, unknown, (bank: BankClient) => Promise<unknown>][] = [
    [
      'cancelBoleto',
      answerSchema(bankEndpoints.cancelBoleto),
      await bank.cancelBoleto(boletoId),
      (b) => b.cancelBoleto(boletoId),
    ],
    [
      'generateRecurrence',
      answerSchema(bankEndpoints.generateRecurrence),
      await bank.generateRecurrence(recurrenceRequest),
      (b) => b.generateRecurrence(recurrenceRequest),
    ],
    [
      'getCollectionAttempt',
      answerSchema(bankEndpoints.getCollectionAttempt),
      await bank.getCollectionAttempt(attemptId),
      (b) => b.getCollectionAttempt(attemptId),
    ],
    ['getCard', answerSchema(bankEndpoints.getCard), await bank.getCard(card.id), (b) => b.getCard(card.id)],
    [
      'getCardPurchaseByEndToEndId',
      answerSchema(bankEndpoints.getCardPurchaseByEndToEndId),
      await bank.getCardPurchaseByEndToEndId(purchase.end_to_end_id),
      (b) => b.getCardPurchaseByEndToEndId(purchase.end_to_end_id),
    ],
    [
      'getCurrentCardInvoice',
      answerSchema(bankEndpoints.getCurrentCardInvoice),
      await bank.getCurrentCardInvoice({ entity_id: entityId }),
      (b) => b.getCurrentCardInvoice({ entity_id: entityId }),
    ],
    [
      'getMetrics',
      answerSchema(bankEndpoints.getMetrics),
      await bank.getMetrics(metricsQuery),
      (b) => b.getMetrics(metricsQuery),
    ],
    [
      'findOrCreateDevice',
      answerSchema(bankEndpoints.findOrCreateDevice),
      await bank.findOrCreateDevice({
        fingerprint: `fuzz-${id}`,
        counterparty_tax_number: '12345678909',
        load_enrollments: true,
      }),
      (b) => b.findOrCreateDevice({ fingerprint: `fuzz-${id}`, counterparty_tax_number: '12345678909' }),
    ],
    [
      'createEnrollment',
      answerSchema(bankEndpoints.createEnrollment),
      enrollment,
      (b) => b.createEnrollment(enrollmentRequest),
    ],
    [
      'getRegistrationOptions',
      answerSchema(bankEndpoints.getRegistrationOptions),
      registrationOptions,
      (b) => b.getRegistrationOptions(enrollment.id),
    ],
    [
      'registerCredential',
      answerSchema(bankEndpoints.registerCredential),
      registered,
      (b) => b.registerCredential(enrollment.id, registration),
    ],
    [
      'createBiometricPayment',
      answerSchema(bankEndpoints.createBiometricPayment),
      payment,
      (b) => b.createBiometricPayment(enrollment.id, paymentRequest),
    ],
    [
      'getBiometricPayment',
      answerSchema(bankEndpoints.getBiometricPayment),
      await bank.getBiometricPayment(enrollment.id, payment.id),
      (b) => b.getBiometricPayment(enrollment.id, payment.id),
    ],
    [
      'getPaymentAuthorizationOptions',
      answerSchema(bankEndpoints.getPaymentAuthorizationOptions),
      paymentOptions,
      (b) => b.getPaymentAuthorizationOptions(enrollment.id, payment.id),
    ],
    [
      'authorizeBiometricPayment',
      answerSchema(bankEndpoints.authorizeBiometricPayment),
      authorized,
      (b) => b.authorizeBiometricPayment(enrollment.id, payment.id, authorization),
    ],
  ];

  const transfers = lastPage((await bank.listTransfers(window)).data);
  const refunds = lastPage((await bank.listReceivableRefunds()).data);
  const attemptsPage = lastPage(attempts.data);
  const participants = lastPage((await bank.listParticipants({ device_id: device.id })).data);
  const enrollments = lastPage((await bank.listEnrollments({ device_id: device.id })).data);
  const lists: [
    string,
    z.ZodType,
    unknown,
    (bank: BankClient) => Promise<unknown>,
    (body: Body) => unknown,
  ][] = [
    [
      'listTransfers',
      answerSchema(bankEndpoints.listTransfers),
      transfers,
      (b) => b.listTransfers(window),
      page,
    ],
    [
      'listAllTransfers',
      answerSchema(bankEndpoints.listTransfers),
      transfers,
      (b) => drain(b.listAllTransfers(window)),
      record,
    ],
    [
      'listReceivableRefunds',
      answerSchema(bankEndpoints.listReceivableRefunds),
      refunds,
      (b) => b.listReceivableRefunds(),
      page,
    ],
    [
      'listAllReceivableRefunds',
      answerSchema(bankEndpoints.listReceivableRefunds),
      refunds,
      (b) => drain(b.listAllReceivableRefunds()),
      record,
    ],
    [
      'listCollectionAttempts',
      answerSchema(bankEndpoints.listCollectionAttempts),
      attemptsPage,
      (b) => b.listCollectionAttempts(),
      page,
    ],
    [
      'listAllCollectionAttempts',
      answerSchema(bankEndpoints.listCollectionAttempts),
      attemptsPage,
      (b) => drain(b.listAllCollectionAttempts()),
      record,
    ],
    [
      'listParticipants',
      answerSchema(bankEndpoints.listParticipants),
      participants,
      (b) => b.listParticipants({ device_id: device.id }),
      page,
    ],
    [
      'listEnrollments',
      answerSchema(bankEndpoints.listEnrollments),
      enrollments,
      (b) => b.listEnrollments({ device_id: device.id }),
      page,
    ],
  ];

  return [
    ...singles.map(([method, schema, value, call]) => ({
      method,
      schema,
      body: wire({ data: value }),
      call,
      answer: record,
    })),
    ...lists.map(([method, schema, value, call, answer]) => ({
      method,
      schema,
      body: wire(value),
      call,
      answer,
    })),
  ];
}

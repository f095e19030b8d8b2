import { createBankCallActivities } from '../../src/activities/bank-calls.js';
import {
  BankRequestRejectedError,
  BankUnauthorizedError,
  BankValidationError,
} from '../../src/bank/errors.js';
import { nonRetryableBankErrorTypes } from '../../src/bank/vocabulary.js';
import { type GenerateRecurrenceRequest, recurrenceSchema } from '../../src/bank/schemas/recurrence.js';
import { exampleRecurrenceRequest } from '../../devkit/sandbox/examples/recurrence-request.js';
import { ownerOf } from '../../devkit/sandbox/seed/accounts.js';
import { failureOf, startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';

function pointers(error: Error): string[] {
  expect(error).toBeInstanceOf(BankValidationError);
  return (error as BankValidationError).errors.map((item) => item.source?.pointer ?? '');
}

describe('POST /banking/cashin/pix/recurrences through BankClient and the sandbox bank', () => {
  let bank: DataSandbox;
  let request: GenerateRecurrenceRequest;

  beforeAll(async () => {
    bank = await startDataSandbox();
    request = exampleRecurrenceRequest({
      externalId: 'recurrence-contract-test-1',
      virtualAccountId: bank.sandbox.state.world.virtualAccountIds[1]!,
      amountCents: 1_990,
    });
  });
  afterAll(async () => {
    await bank?.stop();
  });

  it('generates an approved recurrence from the full request', async () => {
    const recurrence = await bank.bank.generateRecurrence(request);
    const owner = ownerOf(bank.sandbox.state.world, request.virtual_account_id)!;

    expect(recurrenceSchema.safeParse(recurrence).success).toBe(true);
    expect(recurrence).toMatchObject({
      status: 'approved',
      external_id: request.external_id,
      periodicity: 'mnth',
      retry_policy: '3r_7d',
      automated_attempt_retry: true,
      next_working_day: true,
      start_date: request.start_date,
      first_payment_date: '2025-07-05T00:00:00.000Z',
      minimum_amount: { amount: 1_990, currency: 'BRL' },
      first_payment_amount: { amount: 1_990, currency: 'BRL' },
      ispb: '18236120',
      virtual_account_id: owner.virtualAccountId,
      entity_id: owner.entityId,
      bank_account_id: owner.bankAccountId,
      org_id: bank.sandbox.state.world.orgId,
      company_id: bank.sandbox.state.world.companyId,
      qrcode: null,
    });
    expect(bank.sandbox.state.bankData.recurrences.get(recurrence.id)).toEqual(recurrence);
  });

  it('answers the first recurrence for the same request under a repeated external_id, and refuses another', async () => {
    const first = await bank.bank.generateRecurrence({ ...request, external_id: 'idempotent-1' });
    expect(await bank.bank.generateRecurrence({ ...request, external_id: 'idempotent-1' })).toEqual(first);
    const refused = await failureOf(
      bank.bank.generateRecurrence({
        ...request,
        external_id: 'idempotent-1',
        description: 'a different body',
      }),
    );
    expect(refused).toBeInstanceOf(BankRequestRejectedError);
    expect((refused as BankRequestRejectedError).bankCode).toBe('EXTERNAL_ID_IN_USE');
    expect(refused.message).toContain(
      `already names recurrence ${first.id}, created with another description`,
    );
    const stored = [...bank.sandbox.state.bankData.recurrences.values()].filter(
      (recurrence) => recurrence.external_id === 'idempotent-1',
    );
    expect(stored).toHaveLength(1);

    const created = await bank.raw('/banking/cashin/pix/recurrences', {
      method: 'POST',
      body: { ...request, external_id: 'idempotent-2' },
    });
    const repeated = await bank.raw('/banking/cashin/pix/recurrences', {
      method: 'POST',
      body: { ...request, external_id: 'idempotent-2' },
    });
    const conflicting = await bank.raw('/banking/cashin/pix/recurrences', {
      method: 'POST',
      body: { ...request, external_id: 'idempotent-2', amounts: { minimum: 2_000 } },
    });
    expect([created.statusCode, repeated.statusCode, conflicting.statusCode]).toEqual([200, 200, 409]);
    expect(repeated.json()).toEqual(created.json());
    expect(conflicting.json()).toMatchObject({
      errors: [{ title: 'EXTERNAL_ID_IN_USE', source: { pointer: '/external_id' } }],
    });
  });

  it('issues a QR code when the payer authorizes by scanning one', async () => {
    const recurrence = await bank.bank.generateRecurrence({
      ...request,
      external_id: 'qrcode-journey',
      options: { authorization_type: 'qrcode' },
    });
    expect(recurrence.journey).toBe('qrcode');
    expect(recurrence.qrcode).toMatchObject({
      type: 'dynamic',
      hash: expect.stringContaining(recurrence.id),
    });
    expect(recurrence.retry_policy).toBe('none');
  });

  it('refuses an invalid request with a pointer per offending member', async () => {
    const invalid = {
      ...request,
      external_id: undefined,
      amounts: { minimum: -5 },
      counterparty: {
        name: 'Maria',
        tax_number: '123456789012',
        bank_account: { branch: '0001', ispb: '1823612', number: '12x' },
      },
      first_payment: {
        amount: 10.5,
        due_detail: { due_date: '05/07/2025', discount_amounts: [1, 2], discount_dates: ['2025-07-01'] },
      },
      options: { retry_policy: 'always' },
      periodicity: 'daily',
      start_date: 'tomorrow',
      virtual_account_id: 'account-1',
    } as unknown as GenerateRecurrenceRequest;

    const error = await failureOf(bank.bank.generateRecurrence(invalid));
    expect(pointers(error).sort()).toEqual(
      [
        '/amounts/minimum',
        '/counterparty/tax_number',
        '/counterparty/bank_account/ispb',
        '/counterparty/bank_account/number',
        '/external_id',
        '/first_payment/amount',
        '/first_payment/due_detail/due_date',
        '/first_payment/due_detail/discount_dates',
        '/options/retry_policy',
        '/periodicity',
        '/start_date',
        '/virtual_account_id',
      ].sort(),
    );
    expect(error.message).toContain('must be 11 (CPF) or 14 (CNPJ) digits');
    expect(error.message).toContain('must be 8 digits');

    const raw = await bank.raw('/banking/cashin/pix/recurrences', {
      method: 'POST',
      body: { ...request, counterparty: { ...request.counterparty, tax_number: '1' } },
    });
    expect(raw.statusCode).toBe(422);
    expect(raw.json()).toEqual({
      errors: [
        {
          title: 'INVALID_PARAMETER',
          detail: 'must be 11 (CPF) or 14 (CNPJ) digits',
          source: { pointer: '/counterparty/tax_number' },
        },
      ],
    });
  });

  it('refuses a virtual account that is not the organisation’s', async () => {
    const error = await failureOf(
      bank.bank.generateRecurrence({
        ...request,
        external_id: 'foreign-account',
        virtual_account_id: '00000000-0000-4000-8000-000000000000',
      }),
    );
    expect(pointers(error)).toEqual(['/virtual_account_id']);
  });

  it('refuses wrong credentials with 401', async () => {
    expect(await failureOf(bank.badBank.generateRecurrence(request))).toBeInstanceOf(BankUnauthorizedError);
  });

  it('is an activity whose validation failure is not retried', async () => {
    const activities = createBankCallActivities(bank.bank);
    const recurrence = await activities.generateRecurrence({ ...request, external_id: 'activity-1' });
    expect(recurrence.status).toBe('approved');
    const failure = await failureOf(
      activities.generateRecurrence({ ...request, periodicity: 'x' as 'mnth' }),
    );
    expect(failure).toMatchObject({ type: 'BankValidation' });
    expect(nonRetryableBankErrorTypes).toContain('BankValidation');
  });
});

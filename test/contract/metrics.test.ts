import { createBankCallActivities } from '../../src/activities/bank-calls.js';
import { BankNotFoundError, BankUnauthorizedError, BankValidationError } from '../../src/bank/errors.js';
import type { MetricsQuery } from '../../src/bank/schemas/metrics.js';
import { failureOf, fixedNow, startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';

interface Document {
  status: string;
  amount: { amount: number };
  bank_account_id: string;
  timestamp: string;
}

describe('GET /banking/metric through BankClient and the sandbox bank', () => {
  let bank: DataSandbox;

  /** Cents settled and failed, summed straight from the seeded documents. */
  function sums(documents: readonly Document[], query: MetricsQuery) {
    const selected = documents.filter(
      (d) =>
        d.bank_account_id === query.bank_account_id &&
        Date.parse(d.timestamp) >= Date.parse(query.from_datetime) &&
        Date.parse(d.timestamp) < Date.parse(query.to_datetime),
    );
    const total = (status: string) =>
      selected.filter((d) => d.status === status).reduce((sum, d) => sum + d.amount.amount, 0);
    return { settled: total('settled'), failed: total('failed') };
  }

  beforeAll(async () => {
    bank = await startDataSandbox();
  });
  afterAll(async () => {
    await bank?.stop();
  });

  it('agrees with the cash-ins and transfers it counts, for every bank account and window', async () => {
    const data = bank.sandbox.state.bankData;
    const windows = [
      ['2025-04-01T00:00:00Z', fixedNow.toISOString()],
      ['2025-05-01T00:00:00Z', '2025-06-01T00:00:00Z'],
      ['2025-06-08T00:00:00Z', '2025-06-09T00:00:00Z'],
    ] as const;
    for (const bank_account_id of bank.sandbox.state.world.bankAccountIds) {
      for (const [from_datetime, to_datetime] of windows) {
        const query = { bank_account_id, from_datetime, to_datetime };
        const metrics = await bank.bank.getMetrics(query);
        expect(metrics).toEqual({
          collecting_document: sums(data.collectingDocuments, query),
          payment_document: sums(data.transfers, query),
        });
      }
    }
    const wide = await bank.bank.getMetrics({
      bank_account_id: bank.sandbox.state.world.bankAccountIds[0]!,
      from_datetime: windows[0][0],
      to_datetime: windows[0][1],
    });
    for (const kind of [wide.collecting_document, wide.payment_document]) {
      expect(kind.settled).toBeGreaterThan(0);
      expect(kind.failed).toBeGreaterThan(0);
    }
  });

  it('counts a document at from_datetime and not at to_datetime', async () => {
    const transfer = bank.sandbox.state.bankData.transfers.find((t) => t.status === 'settled')!;
    const at = transfer.timestamp;
    const startingAt = await bank.bank.getMetrics({
      bank_account_id: transfer.bank_account_id,
      from_datetime: at,
      to_datetime: at,
    });
    expect(startingAt.payment_document.settled).toBe(0);
    const oneSecond = new Date(Date.parse(at) + 1000).toISOString();
    const including = await bank.bank.getMetrics({
      bank_account_id: transfer.bank_account_id,
      from_datetime: at,
      to_datetime: oneSecond,
    });
    expect(including.payment_document.settled).toBeGreaterThanOrEqual(transfer.amount.amount);
  });

  it('refuses wrong credentials with the single-error 401', async () => {
    const query = {
      bank_account_id: bank.sandbox.state.world.bankAccountIds[0]!,
      from_datetime: '2025-05-01T00:00:00Z',
      to_datetime: '2025-06-01T00:00:00Z',
    };
    expect(await failureOf(bank.badBank.getMetrics(query))).toBeInstanceOf(BankUnauthorizedError);
    const raw = await bank.raw('/banking/metric', { auth: false });
    expect(raw.json()).toEqual({ error: { error_code: 'UNAUTHORIZED', error_message: expect.any(String) } });
  });

  it('requires the bank account and the window (single-error 400 naming them)', async () => {
    const error = await failureOf(
      bank.bank.getMetrics({ from_datetime: '2025-05-01T00:00:00Z' } as MetricsQuery),
    );
    expect(error).toBeInstanceOf(BankValidationError);
    expect((error as BankValidationError).bankCode).toBe('REQUIRED_PARAMETER');
    expect(error.message).toMatch(/bank_account_id: is required; to_datetime: is required/);
    const raw = await bank.raw(
      '/banking/metric?bank_account_id=1&from_datetime=2025-05-01T00:00:00Z&to_datetime=2025-06-01T00:00:00Z',
    );
    expect(raw.statusCode).toBe(400);
    expect(raw.json().error).toEqual({
      error_code: 'INVALID_PARAMETER',
      error_message: 'bank_account_id: must be a uuid (8-4-4-4-12 hex digits)',
    });
  });

  it('answers 404 for a bank account that is not the organisation’s', async () => {
    const error = await failureOf(
      bank.bank.getMetrics({
        bank_account_id: '00000000-0000-4000-8000-000000000000',
        from_datetime: '2025-05-01T00:00:00Z',
        to_datetime: '2025-06-01T00:00:00Z',
      }),
    );
    expect(error).toBeInstanceOf(BankNotFoundError);
  });

  it('is an activity', async () => {
    const query = {
      bank_account_id: bank.sandbox.state.world.bankAccountIds[1]!,
      from_datetime: '2025-05-01T00:00:00Z',
      to_datetime: '2025-06-01T00:00:00Z',
    };
    const metrics = await createBankCallActivities(bank.bank).getMetrics(query);
    expect(metrics.payment_document).toEqual(sums(bank.sandbox.state.bankData.transfers, query));
  });
});

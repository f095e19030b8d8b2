import { cardPurchaseDocumentSchema } from '../../src/bank/schemas/card-purchase.js';
import { collectionAttemptSchema } from '../../src/bank/schemas/collection-attempt.js';
import { metricsSchema } from '../../src/bank/schemas/metrics.js';
import { generateRecurrenceRequestSchema, recurrenceSchema } from '../../src/bank/schemas/recurrence.js';
import { receivableRefundSchema } from '../../src/bank/schemas/refund.js';
import { transferDocumentSchema, transferListQuerySchema } from '../../src/bank/schemas/transfer.js';
import { createSandbox } from '../../devkit/sandbox/app.js';
import { createLogger } from '../../src/logger.js';

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.path.join('.'));

describe('data resource schemas', () => {
  const sandbox = createSandbox({
    seed: 7,
    now: new Date('2025-03-10T08:00:00Z'),
    credentials: { clientId: 'a', clientSecret: 'b' },
    logger: createLogger('silent'),
  });
  const data = sandbox.state.bankData;
  afterAll(() => sandbox.app.close());

  it('accept every seeded record, keeping fields they do not know', () => {
    const transfer = { ...data.transfers[0]!, bank_note: 'kept' };
    expect(transferDocumentSchema.parse(transfer).bank_note).toBe('kept');
    const attempt = [...data.attempts.values()][0]!;
    expect(collectionAttemptSchema.parse({ ...attempt, channel: 'pix' }).channel).toBe('pix');
    for (const refund of data.refunds) expect(receivableRefundSchema.safeParse(refund).success).toBe(true);
    for (const recurrence of data.recurrences.values())
      expect(recurrenceSchema.safeParse(recurrence).success).toBe(true);
    for (const purchase of data.purchasesByEndToEndId.values()) {
      expect(cardPurchaseDocumentSchema.safeParse(purchase).success).toBe(true);
    }
  });

  it('name the JSON path of a wrong type or a missing required field', () => {
    const withoutId: Record<string, unknown> = { ...data.transfers[0]! };
    delete withoutId.id;
    expect(
      paths(transferDocumentSchema.safeParse({ ...withoutId, amount: { amount: '10', currency: 'BRL' } })),
    ).toEqual(['id', 'amount.amount']);
    const purchase = [...data.purchasesByEndToEndId.values()][0]!;
    const broken = { ...purchase, stages: [{ ...purchase.stages[0]!, callback_amount: null }] };
    expect(paths(cardPurchaseDocumentSchema.safeParse(broken))).toEqual(['stages.0.callback_amount']);
    expect(
      paths(metricsSchema.safeParse({ collecting_document: { settled: 1 }, payment_document: {} })),
    ).toEqual(['collecting_document.failed', 'payment_document.failed', 'payment_document.settled']);
  });

  it('validate request formats: CNPJ tax numbers pass, a window running backwards does not', () => {
    const recurrence = [...data.recurrences.values()][0]!;
    const request = {
      counterparty: {
        name: 'Empresa',
        tax_number: '12345678000199',
        bank_account: { ispb: '60701190', branch: '1', number: '99' },
      },
      external_id: 'r-1',
      periodicity: 'year',
      start_date: recurrence.start_date,
      virtual_account_id: recurrence.virtual_account_id,
    };
    expect(generateRecurrenceRequestSchema.safeParse(request).success).toBe(true);
    const window = transferListQuerySchema.safeParse({
      from_datetime: '2025-02-01T00:00:00Z',
      to_datetime: '2025-01-01T00:00:00Z',
    });
    expect(paths(window)).toEqual(['to_datetime']);
  });

  it('seed the same data for the same seed and now, again after a reset', async () => {
    const again = createSandbox({
      seed: 7,
      now: new Date('2025-03-10T08:00:00Z'),
      credentials: { clientId: 'a', clientSecret: 'b' },
      logger: createLogger('silent'),
    });
    expect(again.state.bankData.transfers).toEqual(data.transfers);
    expect([...again.state.bankData.attempts.values()]).toEqual([...data.attempts.values()]);
    expect(again.state.bankData.invoices).toEqual(data.invoices);
    again.state.bankData.attempts.clear();
    again.state.reset();
    expect([...again.state.bankData.attempts.values()]).toEqual([...data.attempts.values()]);
    await again.app.close();
  });
});

import { collectionAttemptSchema } from '../../src/bank/schemas/collection-attempt.js';
import { enrollmentSchema } from '../../src/bank/schemas/enrollment.js';
import { recurrenceSchema } from '../../src/bank/schemas/recurrence.js';
import { receivableRefundSchema } from '../../src/bank/schemas/refund.js';
import { transferDocumentSchema } from '../../src/bank/schemas/transfer.js';
import { createLogger } from '../../src/logger.js';
import { listReports } from '../../src/reports/list-reports.js';
import { addToTotals, emptyTotals } from '../../src/reports/totals.js';
import { createSandbox } from '../../devkit/sandbox/app.js';

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.path.join('.'));

/** The record without the named members. */
function without(record: object, ...names: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => !names.includes(name)));
}

/** A transfer with only what bankflow uses, in a status the spec does not list. */
const bareTransfer = {
  id: '6f1c3a52-8d7e-4b1a-9c2f-0e5d4a3b2c1d',
  amount: { amount: 12_345, currency: 'BRL' },
  status: 'scheduled',
  timestamp: '2025-06-01T10:00:00Z',
};

describe('records the spec leaves open are read as loosely as it allows', () => {
  const sandbox = createSandbox({
    seed: 11,
    now: new Date('2025-06-15T12:00:00Z'),
    credentials: { clientId: 'a', clientSecret: 'b' },
    logger: createLogger('silent'),
  });
  const data = sandbox.state.bankData;
  afterAll(() => sandbox.app.close());

  it('reads a transfer with only the members bankflow uses, null or absent alike for the rest', () => {
    expect(transferDocumentSchema.parse(bareTransfer)).toEqual(bareTransfer);
    const withNulls = {
      ...bareTransfer,
      external_id: null,
      description: null,
      from_virtual_account_id: null,
    };
    expect(transferDocumentSchema.safeParse(withNulls).success).toBe(true);
    expect(paths(transferDocumentSchema.safeParse(without(bareTransfer, 'id', 'timestamp'))).sort()).toEqual([
      'id',
      'timestamp',
    ]);
    expect(paths(transferDocumentSchema.safeParse({ ...bareTransfer, entity_id: 'entity-1' }))).toEqual([
      'entity_id',
    ]);
  });

  it('reports a transfer in an unknown status under its own name, with empty cells for what it lacks', () => {
    const report = listReports['transfer-report'];
    const { record, row } = report.read(bareTransfer);
    const cells = Object.fromEntries(report.headers.map((header, index) => [header, row[index]]));
    expect(cells).toMatchObject({ id: bareTransfer.id, status: 'scheduled', amount_cents: 12_345 });
    expect(cells.external_id).toBeUndefined();
    const totals = addToTotals(
      addToTotals(emptyTotals(), 'settled', 100),
      record.status,
      record.amount.amount,
    );
    expect(totals.byStatus).toEqual({
      settled: { count: 1, amountCents: 100 },
      scheduled: { count: 1, amountCents: 12_345 },
    });
    for (const seeded of data.transfers) expect(report.read(seeded).record.status).toBe(seeded.status);
  });

  it('reads an attempt whose due_date is a date or a datetime, in any status, with stages of unknown shape', () => {
    const attempt = [...data.attempts.values()][0]!;
    for (const dueDate of ['2025-07-01', '2025-07-01T00:00:00Z', '2025-07-01T00:00:00.000-03:00']) {
      expect(collectionAttemptSchema.parse({ ...attempt, due_date: dueDate }).due_date).toBe(dueDate);
    }
    expect(paths(collectionAttemptSchema.safeParse({ ...attempt, due_date: '01/07/2025' }))).toEqual([
      'due_date',
    ]);
    const odd = { ...attempt, status: 'rescheduled', stages: [{}, { status: 'created', step: 3 }] };
    expect(collectionAttemptSchema.parse(odd)).toMatchObject({
      status: 'rescheduled',
      stages: [{}, { step: 3 }],
    });
  });

  it('keeps statuses outside the documented values of refunds and recurrences', () => {
    const refund = { ...data.refunds[0]!, status: 'under_review' };
    expect(receivableRefundSchema.parse(refund).status).toBe('under_review');
    const recurrence = { ...[...data.recurrences.values()][0]!, status: 'suspended' };
    expect(recurrenceSchema.parse(recurrence).status).toBe('suspended');
  });

  it('reads members a recurrence has no value for as null (as the sandbox writes them) or absent', () => {
    const recurrence = [...data.recurrences.values()][0]!;
    expect(recurrence).toMatchObject({ end_date: null, maximum_amount: null, fixed_amount: null });
    const absent = without(recurrence, 'end_date', 'maximum_amount', 'fixed_amount', 'qrcode');
    expect(recurrenceSchema.safeParse(absent).success).toBe(true);
  });

  it('takes account_info in an enrollment, and null as the webhook form may carry it', () => {
    const enrollment = {
      id: '0b7e9d6c-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
      device_id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      participant_id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
      external_id: null,
      status: 'awaiting_account_holder_validation',
      redirect_url: 'https://bank.example/authorize',
      expiration_datetime: null,
      inserted_at: '2025-06-01T10:00:00Z',
      updated_at: '2025-06-01T10:00:00Z',
      account_info: {
        branch: '0001',
        digit: '7',
        ispb: '12345678',
        name: 'Maria',
        number: '1234567',
        tax_number: '12345678909',
        type: 'checking',
      },
    };
    expect(enrollmentSchema.parse(enrollment).account_info?.number).toBe('1234567');
    const webhookData = { ...enrollment, status: 'authorized', account_info: null };
    expect(enrollmentSchema.parse(webhookData).account_info).toBeNull();
  });
});

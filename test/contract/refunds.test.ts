import { BankUnauthorizedError, BankValidationError } from '../../src/bank/errors.js';
import {
  receivableRefundSchema,
  type ReceivableRefund,
  type RefundListQuery,
} from '../../src/bank/schemas/refund.js';
import {
  byTimeThenId,
  expectFullTraversal,
  failureOf,
  ids,
  startDataSandbox,
  type DataSandbox,
} from '../helpers/data-sandbox.js';

describe('GET /banking/cashin/refunds through BankClient and the sandbox bank', () => {
  let bank: DataSandbox;
  let seeded: ReceivableRefund[];

  function expected(query: RefundListQuery = {}): string[] {
    const from = query.from_datetime ? Date.parse(query.from_datetime) : -Infinity;
    const to = query.to_datetime ? Date.parse(query.to_datetime) : Infinity;
    return ids(
      seeded
        .filter((r) => Date.parse(r.timestamp) >= from && Date.parse(r.timestamp) < to)
        .filter((r) => !query.virtual_account_id || r.virtual_account_id === query.virtual_account_id)
        .filter((r) => !query.reconciliation_id || r.reconciliation_id === query.reconciliation_id)
        .sort(byTimeThenId((r) => r.timestamp)),
    );
  }

  async function listedIds(query: RefundListQuery): Promise<string[]> {
    const listed: string[] = [];
    for await (const refund of bank.bank.listAllReceivableRefunds(query)) listed.push(refund.id);
    return listed;
  }

  beforeAll(async () => {
    bank = await startDataSandbox();
    seeded = bank.sandbox.state.bankData.refunds;
  });
  afterAll(async () => {
    await bank?.stop();
  });

  it('answers a page of refunds with their stages', async () => {
    const page = await bank.bank.listReceivableRefunds();
    expect(page.data).toHaveLength(50);
    expect(page.metadata).toMatchObject({ before: null, has_next: true });
    for (const refund of page.data) {
      expect(receivableRefundSchema.safeParse(refund).success).toBe(true);
      expect(refund.stages[0]!.status).toBe('created');
      expect(refund.stages.at(-1)!.status).toBe(refund.status);
    }
  });

  it('refunds settled Pix cash-ins of the same account, never more than was received', () => {
    const documents = new Map(bank.sandbox.state.bankData.collectingDocuments.map((d) => [d.id, d]));
    expect(seeded.length).toBeGreaterThan(100);
    expect(new Set(seeded.map((r) => r.collecting_document_id)).size).toBe(seeded.length);
    for (const refund of seeded) {
      const document = documents.get(refund.collecting_document_id)!;
      expect(document.status).toBe('settled');
      expect(refund.amount.amount).toBeLessThanOrEqual(document.amount.amount);
      expect(refund).toMatchObject({
        virtual_account_id: document.virtual_account_id,
        bank_account_id: document.bank_account_id,
        entity_id: document.entity_id,
      });
      expect(Date.parse(refund.timestamp)).toBeGreaterThan(Date.parse(document.timestamp));
      expect(refund.transaction_date !== null).toBe(refund.status === 'settled');
      const failed = refund.stages.find((stage) => stage.status === 'failed');
      expect(failed?.error_code ?? null).toEqual(refund.status === 'failed' ? expect.any(String) : null);
    }
  });

  it('pages forwards and backwards over every refund exactly once', async () => {
    await expectFullTraversal((cursors) => bank.bank.listReceivableRefunds(cursors), expected());
  });

  it('visits every record through the async iterator', async () => {
    expect(await listedIds({})).toEqual(expected());
  });

  it('narrows by virtual account, reconciliation id and window as the seeded data says', async () => {
    const sample = seeded.find((r) => r.reconciliation_id !== null)!;
    const queries: RefundListQuery[] = [
      ...bank.sandbox.state.world.virtualAccountIds.map((virtual_account_id) => ({ virtual_account_id })),
      { reconciliation_id: sample.reconciliation_id! },
      { from_datetime: '2025-05-01T00:00:00Z', to_datetime: '2025-06-01T00:00:00Z' },
      { from_datetime: '2025-05-20T00:00:00Z', virtual_account_id: sample.virtual_account_id },
    ];
    for (const query of queries) {
      const want = expected(query);
      expect(want.length).toBeGreaterThan(0);
      expect(await listedIds(query)).toEqual(want);
    }
  });

  it('refuses wrong credentials with the single-error 401', async () => {
    expect(await failureOf(bank.badBank.listReceivableRefunds())).toBeInstanceOf(BankUnauthorizedError);
    const raw = await bank.raw('/banking/cashin/refunds', { auth: false });
    expect(raw.statusCode).toBe(401);
    expect(raw.json().error.error_code).toBe('UNAUTHORIZED');
  });

  it('refuses malformed filters with the single-error 400 naming them', async () => {
    const error = await failureOf(
      bank.bank.listReceivableRefunds({ virtual_account_id: 'va-1', to_datetime: '2025-13-01' }),
    );
    expect(error).toBeInstanceOf(BankValidationError);
    expect(error.message).toMatch(/virtual_account_id: must be a uuid/);
    expect(error.message).toMatch(/to_datetime: /);
    const raw = await bank.raw('/banking/cashin/refunds?reconciliation_id=x');
    expect(raw.statusCode).toBe(400);
    expect(raw.json()).toEqual({
      error: {
        error_code: 'INVALID_PARAMETER',
        error_message: expect.stringMatching(/^reconciliation_id: /),
      },
    });
  });

  it('refuses before and after together with a 400 naming both', async () => {
    const first = await bank.bank.listReceivableRefunds();
    const cursor = first.metadata.after!;
    const raw = await bank.raw(`/banking/cashin/refunds?before=${cursor}&after=${cursor}`);
    expect(raw.statusCode).toBe(400);
    expect(raw.json().error.error_message).toMatch(/^before: .*; after: /);
  });
});

import { BankUnauthorizedError, BankValidationError } from '../../src/bank/errors.js';
import { PageCursorConflictError } from '../../src/bank/pagination.js';
import {
  transferDocumentSchema,
  transferStatuses,
  type SandboxTransferDocument,
  type TransferListQuery,
} from '../../src/bank/schemas/transfer.js';
import {
  byTimeThenId,
  expectFullTraversal,
  failureOf,
  fixedNow,
  ids,
  startDataSandbox,
  type DataSandbox,
} from '../helpers/data-sandbox.js';

const everything = { from_datetime: '2025-01-01T00:00:00Z', to_datetime: '2025-07-01T00:00:00Z' };

describe('GET /banking/cashout/transfer through BankClient and the sandbox bank', () => {
  let bank: DataSandbox;
  let seeded: SandboxTransferDocument[];

  /** The independent answer: the seeded transfers the query selects, in the list's order. */
  function expected(query: TransferListQuery): string[] {
    const from = Date.parse(query.from_datetime);
    const to = Date.parse(query.to_datetime);
    return ids(
      seeded
        .filter((t) => Date.parse(t.timestamp) >= from && Date.parse(t.timestamp) < to)
        .filter((t) => !query.status || t.status === query.status)
        .filter(
          (t) =>
            !query.from_virtual_account_id || t.from_virtual_account_id === query.from_virtual_account_id,
        )
        .filter(
          (t) => !query.to_virtual_account_id || t.to_virtual_account_id === query.to_virtual_account_id,
        )
        .filter((t) => !query.external_id || t.external_id === query.external_id)
        .filter((t) => !query.reconciliation_id || t.reconciliation_id === query.reconciliation_id)
        .sort(byTimeThenId((t) => t.timestamp)),
    );
  }

  async function listedIds(query: TransferListQuery): Promise<string[]> {
    const listed: string[] = [];
    for await (const transfer of bank.bank.listAllTransfers(query)) listed.push(transfer.id);
    return listed;
  }

  beforeAll(async () => {
    bank = await startDataSandbox();
    seeded = bank.sandbox.state.bankData.transfers;
  });
  afterAll(async () => {
    await bank?.stop();
  });

  it('answers a page of transfer documents with cursor metadata', async () => {
    const page = await bank.bank.listTransfers(everything);

    expect(page.data).toHaveLength(50);
    expect(page.metadata.before).toBeNull();
    expect(page.metadata.has_next).toBe(true);
    expect(page.metadata.after).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const transfer of page.data) expect(transferDocumentSchema.safeParse(transfer).success).toBe(true);
    expect(ids(page.data)).toEqual(expected(everything).slice(0, 50));
  });

  it('seeds hundreds of transfers over every status and several virtual accounts', () => {
    expect(seeded.length).toBeGreaterThanOrEqual(300);
    expect(new Set(seeded.map((t) => t.status))).toEqual(new Set(transferStatuses));
    expect(new Set(seeded.map((t) => t.from_virtual_account_id)).size).toBe(
      bank.sandbox.state.world.virtualAccountIds.length,
    );
    for (const t of seeded) expect(Date.parse(t.timestamp)).toBeLessThan(fixedNow.getTime());
  });

  it('pages forwards and backwards over every transfer exactly once, in a stable order', async () => {
    await expectFullTraversal(
      (cursors) => bank.bank.listTransfers({ ...everything, ...cursors }),
      expected(everything),
    );
  });

  it('visits every record through the async iterator', async () => {
    expect(await listedIds(everything)).toEqual(expected(everything));
  });

  it('narrows by each filter exactly as the seeded data says', async () => {
    const sample = seeded.find((t) => t.reconciliation_id !== null && t.status === 'settled')!;
    const queries: TransferListQuery[] = [
      ...transferStatuses.map((status) => ({ ...everything, status })),
      { ...everything, from_virtual_account_id: sample.from_virtual_account_id },
      { ...everything, to_virtual_account_id: sample.to_virtual_account_id },
      { ...everything, external_id: sample.external_id },
      { ...everything, reconciliation_id: sample.reconciliation_id! },
      { ...everything, status: 'settled', from_virtual_account_id: sample.from_virtual_account_id },
      { from_datetime: '2025-05-01T00:00:00Z', to_datetime: '2025-05-15T00:00:00Z' },
    ];
    for (const query of queries) {
      const want = expected(query);
      expect(want.length).toBeGreaterThan(0);
      expect(await listedIds(query)).toEqual(want);
    }
    const total = transferStatuses.reduce(
      (sum, status) => sum + expected({ ...everything, status }).length,
      0,
    );
    expect(total).toBe(seeded.length);
  });

  it('treats the window as [from_datetime, to_datetime)', async () => {
    const edge = seeded[10]!;
    const startingThere = await listedIds({
      from_datetime: edge.timestamp,
      to_datetime: everything.to_datetime,
    });
    const endingThere = await listedIds({
      from_datetime: everything.from_datetime,
      to_datetime: edge.timestamp,
    });
    expect(startingThere).toContain(edge.id);
    expect(endingThere).not.toContain(edge.id);
    expect(startingThere.length + endingThere.length).toBe(seeded.length);
  });

  it('answers an empty window with an empty last page', async () => {
    const page = await bank.bank.listTransfers({
      from_datetime: '2020-01-01T00:00:00Z',
      to_datetime: '2020-02-01T00:00:00Z',
    });
    expect(page).toEqual({ data: [], metadata: { before: null, after: null, has_next: false } });
  });

  it('refuses wrong credentials with the single-error 401', async () => {
    const error = await failureOf(bank.badBank.listTransfers(everything));
    expect(error).toBeInstanceOf(BankUnauthorizedError);
    const raw = await bank.raw('/banking/cashout/transfer', { auth: false });
    expect(raw.statusCode).toBe(401);
    expect(raw.json()).toEqual({ error: { error_code: 'UNAUTHORIZED', error_message: expect.any(String) } });
  });

  it('requires from_datetime and to_datetime (single-error 400 naming them)', async () => {
    const error = await failureOf(bank.bank.listTransfers({} as TransferListQuery));
    expect(error).toBeInstanceOf(BankValidationError);
    expect((error as BankValidationError).bankCode).toBe('REQUIRED_PARAMETER');
    expect(error.message).toMatch(/from_datetime: is required/);
    expect(error.message).toMatch(/to_datetime: is required/);
    const raw = await bank.raw('/banking/cashout/transfer?from_datetime=2025-01-01T00:00:00Z');
    expect(raw.statusCode).toBe(400);
    expect(raw.json()).toEqual({
      error: { error_code: 'REQUIRED_PARAMETER', error_message: 'to_datetime: is required' },
    });
  });

  it('refuses malformed filters naming each parameter', async () => {
    const error = await failureOf(
      bank.bank.listTransfers({
        ...everything,
        status: 'paid' as 'settled',
        from_virtual_account_id: 'not-a-uuid',
      }),
    );
    expect((error as BankValidationError).bankCode).toBe('INVALID_PARAMETER');
    expect(error.message).toMatch(/from_virtual_account_id: must be a uuid/);
    expect(error.message).toMatch(/status: /);
    const reversed = await failureOf(
      bank.bank.listTransfers({
        from_datetime: everything.to_datetime,
        to_datetime: everything.from_datetime,
      }),
    );
    expect(reversed.message).toMatch(/to_datetime: must not be earlier than from_datetime/);
    const unknown = await bank.raw(
      `/banking/cashout/transfer?from_datetime=${everything.from_datetime}&to_datetime=${everything.to_datetime}&page=2`,
    );
    expect(unknown.json().error.error_message).toBe('page: is not a parameter of this endpoint');
  });

  it('refuses before and after together: the client before sending, the bank with a 400 naming both', async () => {
    const first = await bank.bank.listTransfers(everything);
    const cursor = first.metadata.after!;
    const error = await failureOf(bank.bank.listTransfers({ ...everything, before: cursor, after: cursor }));
    expect(error).toBeInstanceOf(PageCursorConflictError);

    const raw = await bank.raw(
      `/banking/cashout/transfer?from_datetime=${everything.from_datetime}&to_datetime=${everything.to_datetime}&before=${cursor}&after=${cursor}`,
    );
    expect(raw.statusCode).toBe(400);
    expect(raw.json().error.error_code).toBe('INVALID_PARAMETER');
    expect(raw.json().error.error_message).toMatch(/^before: .*; after: /);
  });

  it('refuses a cursor it did not hand out, or one from another list', async () => {
    const forged = await failureOf(bank.bank.listTransfers({ ...everything, after: 'bm90LWEtY3Vyc29y' }));
    expect(forged.message).toMatch(/after: is not a cursor of this list/);
    const refunds = await bank.bank.listReceivableRefunds();
    const foreign = await failureOf(
      bank.bank.listTransfers({ ...everything, before: refunds.metadata.after! }),
    );
    expect(foreign.message).toMatch(/before: is not a cursor of this list/);
  });
});

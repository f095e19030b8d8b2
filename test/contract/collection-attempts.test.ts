import { createBankCallActivities } from '../../src/activities/bank-calls.js';
import { BankNotFoundError, BankUnauthorizedError, BankValidationError } from '../../src/bank/errors.js';
import { nonRetryableBankErrorTypes } from '../../src/bank/vocabulary.js';
import {
  collectionAttemptSchema,
  type CollectionAttempt,
  type CollectionAttemptListQuery,
} from '../../src/bank/schemas/collection-attempt.js';
import type { Recurrence } from '../../src/bank/schemas/recurrence.js';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import { sandboxControl } from '../helpers/sandbox-control.js';
import {
  byTimeThenId,
  expectFullTraversal,
  failureOf,
  fixedNow,
  ids,
  pagesForward,
  startDataSandbox,
  type DataSandbox,
} from '../helpers/data-sandbox.js';

const attemptsPath = '/banking/cashin/pix/recurrences/collections/attempts';

function pointers(error: Error): string[] {
  expect(error).toBeInstanceOf(BankValidationError);
  return (error as BankValidationError).errors.map((item) => item.source?.pointer ?? '');
}

describe('recurrence collection attempts through BankClient and the sandbox bank', () => {
  let bank: DataSandbox;
  let control: ReturnType<typeof sandboxControl>;

  const stored = () => [...bank.sandbox.state.bankData.attempts.values()];

  /** The independent answer: the stored attempts the query selects, in the list's order. */
  function expected(query: CollectionAttemptListQuery = {}): string[] {
    const from = query.from_datetime ? Date.parse(query.from_datetime) : -Infinity;
    const to = query.to_datetime ? Date.parse(query.to_datetime) : Infinity;
    return ids(
      stored()
        .filter((a) => Date.parse(a.timestamp) >= from && Date.parse(a.timestamp) < to)
        .filter((a) => !query.entity_id || a.entity_id === query.entity_id)
        .filter((a) => !query.recurrence_id || a.recurrence_id === query.recurrence_id)
        .filter((a) => !query.collection_id || a.collection_id === query.collection_id)
        .sort(byTimeThenId((a) => a.timestamp)),
    );
  }

  async function listedIds(query: CollectionAttemptListQuery): Promise<string[]> {
    const listed: string[] = [];
    for await (const attempt of bank.bank.listAllCollectionAttempts(query)) listed.push(attempt.id);
    return listed;
  }

  function approvedRecurrence(index = 0): Recurrence {
    const approved = [...bank.sandbox.state.bankData.recurrences.values()].filter(
      (r) => r.status === 'approved',
    );
    return approved[index]!;
  }

  beforeEach(async () => {
    bank = await startDataSandbox();
    control = sandboxControl(bank.sandbox.url);
  });
  afterEach(async () => {
    await bank?.stop();
  });

  it('seeds hundreds of attempts over the last weeks for the approved and cancelled recurrences', () => {
    const recurrences = [...bank.sandbox.state.bankData.recurrences.values()];
    expect(recurrences.filter((r) => r.status === 'approved').length).toBeGreaterThan(3);
    expect(stored().length).toBeGreaterThanOrEqual(200);
    expect(new Set(stored().map((a) => a.status))).toEqual(new Set(['created', 'settled', 'failed']));
    for (const attempt of stored()) {
      const recurrence = bank.sandbox.state.bankData.recurrences.get(attempt.recurrence_id!)!;
      expect(recurrence.status).not.toBe('rejected');
      expect(attempt.external_id).toBe(recurrence.external_id);
      expect(attempt.entity_id).toBe(recurrence.entity_id);
      expect(Date.parse(attempt.timestamp)).toBeLessThanOrEqual(fixedNow.getTime());
      expect(attempt.end_to_end_id === null).toBe(
        attempt.status === 'created' || attempt.status === 'cancelled',
      );
    }
  });

  it('lists attempts without stages and reads one with its stages', async () => {
    const page = await bank.bank.listCollectionAttempts();
    expect(page.data).toHaveLength(50);
    for (const attempt of page.data) {
      expect(collectionAttemptSchema.safeParse(attempt).success).toBe(true);
      expect(attempt).not.toHaveProperty('stages');
    }
    const failed = stored().find((a) => a.status === 'failed')!;
    const read = await bank.bank.getCollectionAttempt(failed.id);
    expect(read).toEqual(failed);
    expect(read.stages!.map((stage) => stage.status)).toEqual(['created', 'failed']);
    expect(read.stages![1]!.error_code).toEqual(expect.any(String));
  });

  it('pages forwards and backwards over every attempt exactly once, 50 at a time by default', async () => {
    await expectFullTraversal((cursors) => bank.bank.listCollectionAttempts(cursors), expected());
  });

  it('honours the page size, capped at 100', async () => {
    await expectFullTraversal(
      (cursors) => bank.bank.listCollectionAttempts({ ...cursors, limit: 20 }),
      expected(),
      20,
    );
    const capped = await bank.bank.listCollectionAttempts({ limit: 500 });
    expect(capped.data).toHaveLength(100);
    expect(ids(capped.data)).toEqual(expected().slice(0, 100));
  });

  it('visits every record through the async iterator', async () => {
    expect(await listedIds({ limit: 100 })).toEqual(expected());
  });

  it('narrows by entity, recurrence, collection and window as the seeded data says', async () => {
    const retried = stored().find((a) => a.type === 'retry')!;
    const queries: CollectionAttemptListQuery[] = [
      { entity_id: bank.sandbox.state.world.entityIds[0]! },
      { entity_id: bank.sandbox.state.world.entityIds[1]! },
      { recurrence_id: retried.recurrence_id! },
      { collection_id: retried.collection_id },
      { from_datetime: '2025-05-01T00:00:00Z', to_datetime: '2025-06-01T00:00:00Z' },
      { recurrence_id: retried.recurrence_id!, from_datetime: '2025-05-01T00:00:00Z' },
    ];
    for (const query of queries) {
      const want = expected(query);
      expect(want.length).toBeGreaterThan(0);
      expect(await listedIds(query)).toEqual(want);
    }
    expect(expected({ collection_id: retried.collection_id }).length).toBeGreaterThan(1);
    const perEntity = bank.sandbox.state.world.entityIds.map((entity_id) => expected({ entity_id }).length);
    expect(perEntity.reduce((a, b) => a + b, 0)).toBe(stored().length);
  });

  it('refuses malformed filters with a pointer per query parameter', async () => {
    const error = await failureOf(
      bank.bank.listCollectionAttempts({ recurrence_id: 'r-1', from_datetime: 'yesterday', limit: 0 }),
    );
    expect(pointers(error).sort()).toEqual(['/query/from_datetime', '/query/limit', '/query/recurrence_id']);
    const raw = await bank.raw(`${attemptsPath}?status=settled`);
    expect(raw.statusCode).toBe(400);
    expect(raw.json()).toEqual({
      errors: [
        {
          title: 'INVALID_PARAMETER',
          detail: 'status: is not a parameter of this endpoint',
          source: { pointer: '/query/status' },
        },
      ],
    });
  });

  it('refuses before and after together with a pointer to each', async () => {
    const first = await bank.bank.listCollectionAttempts();
    const raw = await bank.raw(
      `${attemptsPath}?after=${first.metadata.after}&before=${first.metadata.after}`,
    );
    expect(raw.statusCode).toBe(400);
    expect(raw.json().errors.map((item: { source: { pointer: string } }) => item.source.pointer)).toEqual([
      '/query/before',
      '/query/after',
    ]);
  });

  it('answers 404 for an unknown attempt and 400 for an id that is not a uuid', async () => {
    const missing = await failureOf(bank.bank.getCollectionAttempt('00000000-0000-4000-8000-000000000000'));
    expect(missing).toBeInstanceOf(BankNotFoundError);
    expect(pointers(await failureOf(bank.bank.getCollectionAttempt('attempt-1')))).toEqual(['/path/id']);
  });

  it('refuses wrong credentials with 401 on the list and on the single record', async () => {
    expect(await failureOf(bank.badBank.listCollectionAttempts())).toBeInstanceOf(BankUnauthorizedError);
    expect(await failureOf(bank.badBank.getCollectionAttempt(stored()[0]!.id))).toBeInstanceOf(
      BankUnauthorizedError,
    );
  });

  it('keeps its place when attempts arrive while a client is paging', async () => {
    const recurrence = approvedRecurrence();
    const before = expected();
    const first = await bank.bank.listCollectionAttempts();
    const last = first.data[first.data.length - 1]!;
    const bulk = await control.post(`/sandbox/recurrences/${recurrence.id}/attempts/bulk`, {
      count: 30,
      from: '2025-03-01T00:00:00Z',
      to: last.timestamp,
    });
    expect(bulk.status).toBe(201);

    const rest = await pagesForward((cursors) =>
      bank.bank.listCollectionAttempts(cursors.after ? cursors : { after: first.metadata.after! }),
    );
    const seen = [...ids(first.data), ...rest.flatMap((page) => ids(page.data))];
    expect(seen).toEqual(before);
  });

  it('produces attempts on demand, each announced by a webhook', async () => {
    const recurrence = approvedRecurrence(1);
    const produced = await control.post<{ data: CollectionAttempt[] }>(
      `/sandbox/recurrences/${recurrence.id}/attempts`,
      {
        attempts: [
          { status: 'failed', timestamp: '2025-06-14T09:00:00Z' },
          { status: 'created', timestamp: '2025-06-14T10:00:00Z' },
        ],
      },
    );
    expect(produced.status).toBe(201);
    const [failed, created] = produced.body.data;
    const retry = await control.post<{ data: CollectionAttempt[] }>(
      `/sandbox/recurrences/${recurrence.id}/attempts`,
      {
        attempts: [
          { status: 'settled', timestamp: '2025-06-15T09:00:00Z', collection_id: failed!.collection_id },
        ],
      },
    );
    const settledRetry = retry.body.data[0]!;
    expect(settledRetry).toMatchObject({
      type: 'retry',
      txid: failed!.txid,
      transaction_date: '2025-06-15T09:00:00.000Z',
    });

    const announced = bank.sandbox.webhooks.published.filter(
      (event) => event.category === webhookCategories.recurrenceCollectionAttempt,
    );
    expect(announced.map((event) => [event.type, event.ref_id])).toEqual([
      ['failed', failed!.id],
      ['created', created!.id],
      ['settled', settledRetry.id],
    ]);
    expect(announced[0]!.data).toMatchObject({ id: failed!.id, external_id: recurrence.external_id });

    const listed = await listedIds({ recurrence_id: recurrence.id, from_datetime: '2025-06-14T00:00:00Z' });
    expect(listed).toEqual(expect.arrayContaining([failed!.id, created!.id, settledRetry.id]));
    expect(await bank.bank.getCollectionAttempt(settledRetry.id)).toMatchObject({ status: 'settled' });
  });

  it('moves a created attempt to its outcome once, announcing it', async () => {
    const recurrence = approvedRecurrence(2);
    const produced = await control.post<{ data: CollectionAttempt[] }>(
      `/sandbox/recurrences/${recurrence.id}/attempts`,
      { attempts: [{ status: 'created' }] },
    );
    const attempt = produced.body.data[0]!;
    const moved = await control.post<{ data: CollectionAttempt }>(
      `/sandbox/collection-attempts/${attempt.id}/status`,
      {
        status: 'settled',
        timestamp: '2025-06-15T11:00:00Z',
      },
    );
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({
      status: 'settled',
      timestamp: '2025-06-15T11:00:00.000Z',
      end_to_end_id: expect.stringMatching(new RegExp(`^E${recurrence.ispb}20250615`)),
    });
    const read = await bank.bank.getCollectionAttempt(attempt.id);
    expect(read.stages!.map((stage) => stage.status)).toEqual(['created', 'settled']);
    expect(bank.sandbox.webhooks.published.at(-1)).toMatchObject({ type: 'settled', ref_id: attempt.id });

    const again = await control.post(`/sandbox/collection-attempts/${attempt.id}/status`, {
      status: 'failed',
    });
    expect(again.status).toBe(409);
  });

  it('refuses control requests for unknown records or with bad bodies', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await control.post(`/sandbox/recurrences/${unknown}/attempts`, { attempts: [] })).status).toBe(
      404,
    );
    expect((await control.post(`/sandbox/recurrences/${unknown}/attempts/bulk`, { count: 1 })).status).toBe(
      404,
    );
    expect(
      (await control.post(`/sandbox/collection-attempts/${unknown}/status`, { status: 'settled' })).status,
    ).toBe(404);
    expect((await control.post('/sandbox/recurrences/not-a-uuid/attempts', { attempts: [] })).status).toBe(
      400,
    );
    const recurrence = approvedRecurrence();
    const empty = await control.post<{ errors: { source: { pointer: string } }[] }>(
      `/sandbox/recurrences/${recurrence.id}/attempts`,
      { attempts: [] },
    );
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]!.source.pointer).toBe('/attempts');
    const backwards = await control.post<{ errors: { source: { pointer: string } }[] }>(
      `/sandbox/recurrences/${recurrence.id}/attempts/bulk`,
      { count: 5, from: '2025-06-02T00:00:00Z', to: '2025-06-01T00:00:00Z' },
    );
    expect(backwards.body.errors[0]!.source.pointer).toBe('/to');
    const badStatus = await control.post(`/sandbox/collection-attempts/${stored()[0]!.id}/status`, {
      status: 'paid',
    });
    expect(badStatus.status).toBe(422);
  });

  it('bulk-generates 10,000 attempts that a client pages through completely', async () => {
    const recurrence = approvedRecurrence();
    const bulk = await control.post<{ data: { created: number; first_attempt_id: string } }>(
      `/sandbox/recurrences/${recurrence.id}/attempts/bulk`,
      {
        count: 10_000,
        statuses: ['settled', 'failed'],
        from: '2025-06-01T00:00:00Z',
        to: '2025-06-15T00:00:00Z',
      },
    );
    expect(bulk.status).toBe(201);
    expect(bulk.body.data.created).toBe(10_000);

    const window = {
      recurrence_id: recurrence.id,
      from_datetime: '2025-06-01T00:00:00Z',
      to_datetime: '2025-06-15T00:00:00Z',
    };
    const listed = await listedIds({ ...window, limit: 100 });
    expect(listed).toEqual(expected(window));
    expect(listed.length).toBeGreaterThanOrEqual(10_000);
    const listedSet = new Set(listed);
    const failed = stored().filter((a) => listedSet.has(a.id) && a.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(5_000);
  });

  it('is an activity that reads one attempt', async () => {
    const activities = createBankCallActivities(bank.bank);
    const page = await bank.bank.listCollectionAttempts({ limit: 10 });
    const attempt = await activities.getCollectionAttempt(page.data[0]!.id);
    expect(attempt.stages).toBeDefined();
    const failure = await failureOf(activities.getCollectionAttempt('00000000-0000-4000-8000-000000000000'));
    expect(failure).toMatchObject({ type: 'BankNotFound' });
    expect(nonRetryableBankErrorTypes).toContain('BankNotFound');
  });
});

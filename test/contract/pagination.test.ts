import { bankActivity } from '../../src/activities/failures.js';
import { BankClient } from '../../src/bank/client.js';
import { BankInvalidResponseError, BankUnavailableError } from '../../src/bank/errors.js';
import { nonRetryableBankErrorTypes } from '../../src/bank/vocabulary.js';
import {
  eachPage,
  eachRecord,
  PageCursorConflictError,
  toPage,
  type Page,
} from '../../src/bank/pagination.js';
import { createLogger } from '../../src/logger.js';
import { failureOf } from '../helpers/data-sandbox.js';
import { freePort } from '../helpers/cli.js';

const endpoint = { operation: 'listThings', path: '/things' };
const window = { from_datetime: '2025-01-01T00:00:00Z', to_datetime: '2025-02-01T00:00:00Z' };

describe('client pagination', () => {
  let offline: BankClient;

  beforeAll(async () => {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    offline = new BankClient(
      { baseUrl, clientId: 'c', clientSecret: 's', timeoutMs: 2_000 },
      createLogger('silent'),
    );
  });

  it('sends requests to a bank that is not there (so a refusal below means nothing was sent)', async () => {
    expect(await failureOf(offline.listTransfers(window))).toBeInstanceOf(BankUnavailableError);
  });

  it('refuses before and after together on every list, before any request, naming both', async () => {
    const both = { before: 'b', after: 'a' };
    const refusals = [
      offline.listTransfers({ ...window, ...both }),
      offline.listCollectionAttempts(both),
      offline.listReceivableRefunds(both),
      offline.listAllTransfers({ ...window, ...both }).next(),
      offline.listAllCollectionAttempts(both).next(),
      offline.listAllReceivableRefunds(both).next(),
    ];
    for (const refusal of refusals) {
      const error = await failureOf(refusal);
      expect(error).toBeInstanceOf(PageCursorConflictError);
      expect(error.message).toMatch(/before and after/);
      expect(error).toMatchObject({
        type: 'BankValidation',
        retryable: false,
        parameters: ['before', 'after'],
      });
    }
  });

  it('turns the refusal into a non-retryable activity failure', async () => {
    const failure = await failureOf(
      bankActivity(() => offline.listCollectionAttempts({ before: 'b', after: 'a' }))(),
    );
    expect(failure).toMatchObject({ type: 'BankValidation' });
    expect(nonRetryableBankErrorTypes).toContain('BankValidation');
  });

  it('follows metadata.after until has_next is false', async () => {
    const pages: Record<string, Page<number>> = {
      start: { data: [1, 2], metadata: { before: null, after: 'p2', has_next: true } },
      p2: { data: [3, 4], metadata: { before: 'p1', after: 'p3', has_next: true } },
      p3: { data: [5], metadata: { before: 'p2', after: null, has_next: false } },
    };
    const asked: (string | undefined)[] = [];
    const records: number[] = [];
    const query = { filter: 'x', after: undefined as string | undefined };
    for await (const record of eachRecord(endpoint, query, async (q) => {
      asked.push(q.after);
      expect(q.filter).toBe('x');
      return pages[q.after ?? 'start']!;
    })) {
      records.push(record);
    }
    expect(records).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, 'p2', 'p3']);
  });

  it('refuses a page that promises more without a cursor, or hands back the same cursor', async () => {
    const noCursor = eachPage(endpoint, {}, async () => ({
      data: [1],
      metadata: { before: null, after: null, has_next: true },
    }));
    await noCursor.next();
    const error = await failureOf(noCursor.next());
    expect(error).toBeInstanceOf(BankInvalidResponseError);
    expect(error.message).toMatch(/listThings: .*metadata.after is null/);

    const stuck = eachPage(endpoint, { after: 'same' }, async () => ({
      data: [1],
      metadata: { before: null, after: 'same', has_next: true },
    }));
    await stuck.next();
    expect((await failureOf(stuck.next())).message).toMatch(/repeats the cursor/);
  });

  it('treats a list answered without metadata as its only page', async () => {
    expect(toPage({ data: [1] })).toEqual({
      data: [1],
      metadata: { before: null, after: null, has_next: false },
    });
    let calls = 0;
    const pages = [];
    for await (const page of eachPage(endpoint, {}, async () => {
      calls++;
      return toPage({ data: ['only'] });
    })) {
      pages.push(page);
    }
    expect(calls).toBe(1);
    expect(pages.map((page) => page.data)).toEqual([['only']]);
  });
});

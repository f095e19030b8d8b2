import { AttemptsPageReader, type PageRead } from '../../src/activities/attempts-read-ahead.js';
import { BankClient } from '../../src/bank/client.js';
import { BankUnavailableError } from '../../src/bank/errors.js';
import { collectionAttemptsPath } from '../../devkit/sandbox/routes/recurrences.js';
import { startRecurrence } from '../../src/starter/index.js';
import type { AttemptsPageQuery } from '../../src/contract/attempts-sync.js';
import { control, eventually } from '../helpers/journey.js';
import {
  attemptsIn,
  recordAttemptsListRequests,
  recurrenceRequest,
  type AttemptsListRequest,
} from '../helpers/recurrences.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The attempt ids of `count` pages read one after another, and the cursor after the last. */
async function readPages(reader: AttemptsPageReader, count: number) {
  const ids: string[] = [];
  let after: string | null = null;
  for (let read = 0; read < count; read++) {
    const result: PageRead = await reader.read();
    if ('error' in result) throw result.error;
    ids.push(...result.page.data.map((attempt) => attempt.id));
    after = result.page.metadata.has_next ? result.page.metadata.after : null;
  }
  return { ids, after };
}

describe('reading the attempts list ahead of the sync, against the sandbox bank', () => {
  let stack: TestStack;
  let bank: BankClient;
  let requests: AttemptsListRequest[];
  let window: AttemptsPageQuery;
  let listed: string[];
  const fetchPage = (query: AttemptsPageQuery) => bank.listCollectionAttempts(query);

  beforeAll(async () => {
    stack = await startTestStack();
    bank = new BankClient(stack.bank, stack.logger);
    requests = recordAttemptsListRequests(stack.sandbox);
    const { recurrence } = await startRecurrence(stack, recurrenceRequest(stack));
    const from = '2037-01-01T00:00:00.000Z';
    const to = '2037-01-02T00:00:00.000Z';
    await control(stack, 'POST', `/sandbox/recurrences/${recurrence.id}/attempts/bulk`, {
      count: 1_000,
      statuses: ['settled', 'failed'],
      from,
      to,
    });
    window = { from_datetime: from, to_datetime: to };
    listed = [];
    for await (const attempt of bank.listAllCollectionAttempts(window)) listed.push(attempt.id);
  });
  afterAll(() => stack?.stop());
  beforeEach(() => {
    requests.length = 0;
  });

  it('reads the 20 pages of the window in order, each fetched once, never more than `ahead` beyond the last read', async () => {
    expect(listed).toHaveLength(1_000);
    expect(new Set(listed)).toEqual(
      new Set(attemptsIn(stack.sandbox, window.from_datetime!, window.to_datetime!).map((a) => a.id)),
    );
    const reader = new AttemptsPageReader(fetchPage, window, 3);
    await eventually(
      async () => requests.length,
      (fetched) => fetched === 3,
    );
    await sleep(300);
    expect(requests).toHaveLength(3);

    const { ids, after } = await readPages(reader, 20);
    expect(ids).toEqual(listed);
    expect(after).toBeNull();
    expect(requests).toHaveLength(20);
    expect(new Set(requests.map((request) => request.after)).size).toBe(20);
    const past = await reader.read();
    expect('error' in past && past.error).toBeInstanceOf(RangeError);
  });

  it('stops at a page the bank fails, answering the failure in its place', async () => {
    await control(stack, 'PUT', '/sandbox/faults', {
      fail_next: [{ path_prefix: collectionAttemptsPath, count: 1, status: 503 }],
    });
    try {
      const reader = new AttemptsPageReader(fetchPage, window, 5);
      const failed = await reader.read();
      expect('error' in failed && failed.error).toBeInstanceOf(BankUnavailableError);
      await sleep(200);
      expect(requests).toHaveLength(1);
      const after = await reader.read();
      expect('error' in after && after.error).toBeInstanceOf(RangeError);
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
  });
});

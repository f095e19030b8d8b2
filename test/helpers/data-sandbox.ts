import { BankClient } from '../../src/bank/client.js';
import type { Page, PageCursors } from '../../src/bank/pagination.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import { httpCall, type HttpAnswer } from './http.js';

/** The instant the sandbox seeds around, so totals can be recomputed from the seeded state. */
export const fixedNow = new Date('2025-06-15T12:00:00.000Z');

const credentials = { clientId: 'data-client', clientSecret: 'data-secret' };

export interface DataSandbox {
  sandbox: RunningSandbox;
  bank: BankClient;
  /** A client whose secret the bank refuses. */
  badBank: BankClient;
  /** A raw GET (or other method) against the bank, with or without valid credentials. */
  raw(path: string, init?: { method?: string; body?: unknown; auth?: boolean }): Promise<HttpAnswer>;
  stop(): Promise<void>;
}

/** An in-process sandbox bank over real HTTP, seeded around `fixedNow`, and clients for it. */
export async function startDataSandbox(seed = 42): Promise<DataSandbox> {
  const logger = createLogger('silent');
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed,
    now: fixedNow,
    credentials,
    logger,
  });
  const config = { ...credentials, baseUrl: sandbox.url, timeoutMs: 10_000 };
  const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
  return {
    sandbox,
    bank: new BankClient(config, logger),
    badBank: new BankClient({ ...config, clientSecret: 'wrong' }, logger),
    raw: (path, init = {}) =>
      httpCall(`${sandbox.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          ...(init.auth === false ? {} : { authorization: `Basic ${basic}` }),
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    stop: () => sandbox.stop(),
  };
}

/** The rejection of a promise that must fail. */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('expected the call to fail');
  return outcome;
}

/** Every page from the first, following metadata.after. */
export async function pagesForward<T>(fetch: (cursors: PageCursors) => Promise<Page<T>>): Promise<Page<T>[]> {
  const pages = [await fetch({})];
  for (let last = pages[0]!; last.metadata.has_next; last = pages[pages.length - 1]!) {
    pages.push(await fetch({ after: last.metadata.after! }));
  }
  return pages;
}

/** Every page before `from`, following metadata.before, nearest first. */
export async function pagesBackward<T>(
  from: Page<T>,
  fetch: (cursors: PageCursors) => Promise<Page<T>>,
): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  for (
    let cursor = from.metadata.before;
    cursor !== null;
    cursor = pages[pages.length - 1]!.metadata.before
  ) {
    pages.push(await fetch({ before: cursor }));
  }
  return pages;
}

/** The order every sandbox list uses: timestamp, then id. */
export function byTimeThenId<T extends { id: string }>(timeOf: (record: T) => string) {
  return (a: T, b: T) =>
    Date.parse(timeOf(a)) - Date.parse(timeOf(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export const ids = (records: readonly { id: string }[]) => records.map((record) => record.id);

/**
 * Walks a list forwards and then backwards from its last page, and checks both against the expected order:
 * every record exactly once, pages no larger than `pageSize`, the backward pages the same as the forward
 * ones.
 */
export async function expectFullTraversal<T extends { id: string }>(
  fetch: (cursors: PageCursors) => Promise<Page<T>>,
  expectedIds: string[],
  pageSize = 50,
): Promise<void> {
  const forward = await pagesForward(fetch);
  const seen = forward.flatMap((page) => ids(page.data));
  expect(seen).toEqual(expectedIds);
  expect(new Set(seen).size).toBe(seen.length);
  expect(forward).toHaveLength(Math.max(1, Math.ceil(expectedIds.length / pageSize)));
  for (const page of forward.slice(0, -1)) expect(page.data).toHaveLength(pageSize);
  expect(forward[0]!.metadata.before).toBeNull();
  expect(forward[forward.length - 1]!.metadata).toMatchObject({ after: null, has_next: false });

  const backward = await pagesBackward(forward[forward.length - 1]!, fetch);
  const backwardIds = [...backward].reverse().flatMap((page) => ids(page.data));
  expect([...backwardIds, ...ids(forward[forward.length - 1]!.data)]).toEqual(expectedIds);
  expect(backward.map((page) => ids(page.data))).toEqual(
    forward
      .slice(0, -1)
      .reverse()
      .map((page) => ids(page.data)),
  );
}

import { Context, log } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { BankClient } from '../bank/client.js';
import type { CollectionAttempt } from '../bank/schemas/collection-attempt.js';
import { toRecurrenceAttempt } from '../contract/recurrence.js';
import type {
  AttemptsDelivery,
  AttemptsPageQuery,
  AttemptsPageResult,
  AttemptsPagesRequest,
  AttemptsSlicePage,
  SyncedAttempt,
} from '../contract/attempts-sync.js';
import { AttemptsDeliveryBatch } from './attempts-delivery.js';
import { AttemptsReadAhead } from './attempts-read-ahead.js';
import { bankActivity } from './failures.js';

/** A batch stops taking pages after this long, so one local activity stays short against a slow bank. */
const batchTimeMs = 10_000;

/**
 * Up to `maxPages` consecutive pages of the attempts sync, each recurrence signalled its attempts in signals of
 * `attemptsPerSignal` while the pages come and the rest once at the end: a recurrence on every page wakes once per
 * `attemptsPerSignal` attempts, not once per page (AttemptsDeliveryBatch). The pages come from a reader that
 * fetches each as soon as the one before it has come; when the batch ends before the window does, the reader
 * goes on fetching for the next batch while this one's last signals go out (AttemptsReadAhead). A page that
 * fails after others were fetched ends the batch there: the fetched pages are delivered and the failed page's
 * cursor goes back as `next`, so the next call asks for it again and no page is fetched twice. A retry after a
 * failed signal fetches and signals the batch again, which the recurrence workflows take as duplicates. Only
 * counts go back into the sync's history, never the records.
 */
export async function syncAttemptsPages(
  readAhead: AttemptsReadAhead,
  client: Client,
  request: AttemptsPagesRequest,
): Promise<AttemptsPageResult> {
  const started = Date.now();
  const delivery = new AttemptsDeliveryBatch(client);
  const reader = readAhead.open(request.query, request.maxPages);
  let pages = 0;
  let next: string | null = request.query.after ?? null;
  let cutShort = false;
  try {
    do {
      const read = await reader.read();
      if ('error' in read) {
        if (pages === 0) throw read.error;
        log.warn('attempts page failed; delivering the pages fetched before it', {
          pages,
          error: read.error,
        });
        cutShort = true;
        break;
      }
      pages++;
      delivery.add(read.page.data.map(toSyncedAttempt));
      next = read.page.metadata.has_next ? read.page.metadata.after : null;
    } while (next && !delivery.failed && pages < request.maxPages && Date.now() - started < batchTimeMs);
    if (next && !cutShort && !delivery.failed) readAhead.keep(reader, { ...request.query, after: next });
    return { ...(await delivery.finish(pages)), next };
  } catch (error) {
    reader.stop();
    throw error;
  }
}

function toSyncedAttempt(attempt: CollectionAttempt): SyncedAttempt {
  return {
    externalId: attempt.external_id,
    recurrenceId: attempt.recurrence_id ?? null,
    attempt: toRecurrenceAttempt(attempt),
  };
}

/** Signals each recurrence the attempts of a slice's `pages` pages and counts them (see AttemptsDeliveryBatch). */
function deliverAttempts(
  client: Client,
  attempts: SyncedAttempt[],
  pages: number,
): Promise<AttemptsDelivery> {
  const delivery = new AttemptsDeliveryBatch(client);
  delivery.add(attempts);
  return delivery.finish(pages);
}

/** One page of a slice: a single bank call, so the task queue's rate limit paces it like every other call. */
async function fetchSlicePage(bank: BankClient, query: AttemptsPageQuery): Promise<AttemptsSlicePage> {
  const page = await bank.listCollectionAttempts(query);
  return {
    attempts: page.data.map(toSyncedAttempt),
    next: page.metadata.has_next ? page.metadata.after : null,
  };
}

/**
 * The sync's page activities; they signal through the worker's own Temporal client. A serial sync pages with
 * `syncAttemptsPages`; the slices of a rate-limited sync fetch with `fetchAttemptsSlicePage` and signal with
 * `deliverSyncedAttempts`.
 */
export function createAttemptsSyncActivities(bank: BankClient, bankRequestsPerSecond: number | undefined) {
  const readAhead = new AttemptsReadAhead((query) => bank.listCollectionAttempts(query));
  return {
    fetchAttemptsSlicePage: bankActivity((query: AttemptsPageQuery) => fetchSlicePage(bank, query)),
    deliverSyncedAttempts: (request: { attempts: SyncedAttempt[]; pages: number }) =>
      deliverAttempts(Context.current().client, request.attempts, request.pages),
    /** The fleet's bank rate limit, which decides whether and how wide the sync runs in slices. */
    attemptsSyncPlan: async () => ({ bankRequestsPerSecond: bankRequestsPerSecond ?? null }),
    syncAttemptsPages: bankActivity((request: AttemptsPagesRequest) =>
      syncAttemptsPages(readAhead, Context.current().client, request),
    ),
  };
}

import { Context, log } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { BankClient } from '../bank/client.js';
import type { CollectionAttempt } from '../bank/schemas/collection-attempt.js';
import { toRecurrenceAttempt } from '../contract/recurrence.js';
import {
  type AttemptsPageQuery,
  type AttemptsPagesDeliveryRequest,
  type AttemptsPagesDeliveryResult,
  type AttemptsSlicePage,
  type CountedDelivery,
  type DeliveryRecord,
  type SyncedAttempt,
  deliveryKey,
} from '../contract/attempts-sync.js';
import type { ReportSink } from '../reports/sink/index.js';
import { AttemptsDeliveryBatch } from './attempts-delivery.js';
import { AttemptsPageReader } from './attempts-read-ahead.js';
import { addCounted, emptyCounted, recordDelivery, summarizeDeliveries } from './attempts-recurrences.js';
import { bankActivity } from './failures.js';

/** A delivery stops taking pages after this long, so one signalling round stays short against a slow bank. */
const batchTimeMs = 10_000;

/**
 * `deliverAttemptsPages` starts no delivery after this long, so one activity stays well inside its timeout.
 */
const activityTimeMs = 60_000;

/** What `deliverAttemptsPages` heartbeats after each delivery, and resumes from on a retry. */
interface DeliveryProgress {
  cursor: string | undefined;
  done: boolean;
  totals: CountedDelivery;
}

/**
 * Up to `maxPages` consecutive pages of a serial sync in one queued activity, in deliveries of at most 10 s
 * of pages: each recurrence is signalled once a delivery with its attempts (AttemptsDeliveryBatch; a delivery
 * the length of the batch wakes a recurrence no more often than the local batches did), the delivery's
 * recurrences are left in the sink, and the cursor after it becomes the checkpoint the activity heartbeats,
 * with the running counts, after every page and every signal (so a lost worker is noticed within the
 * heartbeat timeout, and a live one signalling the recurrences of a large delivery is not taken for lost). An
 * attempt that timed out or was cancelled starts no further call, so it never signals beside its own retry. A
 * retry resumes at the last checkpoint: only the delivery under way is fetched and signalled again, which the
 * recurrences take as duplicates, and it rewrites its own record. The next page is fetched while the one
 * before is taken apart (AttemptsPageReader), never past the activity's `maxPages` nor its end: every bank
 * call is inside the activity, and none is repeated but a retry's. A page that fails after others of its
 * delivery were fetched ends the activity there, its cursor handed back as `next`. Once the worker begins to
 * stop (`stopping`), the reader asks for no further page: the delivery under way takes in the page on its way
 * (an activity started then, its first) and ends, and so does the activity, within the worker's grace time;
 * the next activity, on another worker, resumes at `next`.
 */
export async function deliverAttemptsPages(
  bank: BankClient,
  client: Client,
  sink: ReportSink,
  request: AttemptsPagesDeliveryRequest,
  stopping?: AbortSignal,
): Promise<AttemptsPagesDeliveryResult> {
  const context = Context.current();
  const started = Date.now();
  let progress = (context.info.heartbeatDetails as DeliveryProgress | undefined) ?? {
    cursor: request.query.after,
    done: false,
    totals: emptyCounted(),
  };
  const reader = new AttemptsPageReader(
    (query) => bank.listCollectionAttempts(query),
    { ...request.query, after: progress.cursor },
    1,
    request.maxPages - progress.totals.pages,
  );
  // Once the worker begins to stop, the reader asks for no further page (see deliverPages).
  const fetchNoMore = () => reader.fetchNoMore();
  if (stopping?.aborted) fetchNoMore();
  stopping?.addEventListener('abort', fetchNoMore);
  try {
    while (
      !progress.done &&
      progress.totals.pages < request.maxPages &&
      Date.now() - started < activityTimeMs
    ) {
      const checkpoint = progress;
      const delivered = await deliverPages(
        client,
        sink,
        reader,
        progress.cursor,
        request.maxPages - progress.totals.pages,
        { prefix: request.prefix, key: deliveryKey(request.firstPage + progress.totals.pages) },
        { heartbeat: () => context.heartbeat(checkpoint), cancelled: context.cancellationSignal, stopping },
      );
      progress = {
        cursor: delivered.next ?? undefined,
        done: delivered.next === null,
        totals: addCounted(progress.totals, delivered),
      };
      context.heartbeat(progress);
      if (delivered.cutShort || stopping?.aborted) break;
    }
  } finally {
    stopping?.removeEventListener('abort', fetchNoMore);
    reader.stop();
  }
  return { ...progress.totals, next: progress.done ? null : (progress.cursor ?? null) };
}

/**
 * One delivery: up to `maxPages` pages of the reader, whose next page is `cursor`'s, signalled and recorded.
 */
async function deliverPages(
  client: Client,
  sink: ReportSink,
  reader: AttemptsPageReader,
  cursor: string | undefined,
  maxPages: number,
  record: DeliveryRecord,
  activity: { heartbeat: () => void; cancelled: AbortSignal; stopping?: AbortSignal },
): Promise<CountedDelivery & { next: string | null; cutShort: boolean }> {
  const started = Date.now();
  const delivery = new AttemptsDeliveryBatch(client, {
    progress: activity.heartbeat,
    cancelled: activity.cancelled,
  });
  let pages = 0;
  let next: string | null = cursor ?? null;
  let cutShort = false;
  do {
    const read = await reader.read();
    if ('error' in read) {
      if (pages === 0) throw read.error;
      log.warn('attempts page failed; delivering the pages fetched before it', { pages, error: read.error });
      cutShort = true;
      break;
    }
    pages++;
    delivery.add(read.page.data.map(toSyncedAttempt));
    next = read.page.metadata.has_next ? read.page.metadata.after : null;
    activity.heartbeat();
  } while (
    next &&
    !delivery.failed &&
    // Stopping, the page already on its way is taken in and none is asked for after it.
    (!activity.stopping?.aborted || reader.holdsPage) &&
    pages < maxPages &&
    Date.now() - started < batchTimeMs
  );
  const counted = await recordDelivery(sink, record, await delivery.finish(pages));
  return { ...counted, next, cutShort };
}

function toSyncedAttempt(attempt: CollectionAttempt): SyncedAttempt {
  return {
    externalId: attempt.external_id,
    recurrenceId: attempt.recurrence_id ?? null,
    attempt: toRecurrenceAttempt(attempt),
  };
}

/**
 * Signals each recurrence the attempts of a slice's `pages` pages (see AttemptsDeliveryBatch); the
 * recurrences go to the sink under `record` and only counts go back.
 */
async function deliverAttempts(
  client: Client,
  cancelled: AbortSignal,
  sink: ReportSink,
  request: { attempts: SyncedAttempt[]; pages: number; record: DeliveryRecord },
): Promise<CountedDelivery> {
  const delivery = new AttemptsDeliveryBatch(client, { cancelled });
  delivery.add(request.attempts);
  return recordDelivery(sink, request.record, await delivery.finish(request.pages));
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
 * The sync's page activities; they signal through the worker's own Temporal client and leave the recurrences
 * of each delivery in the report sink. A serial sync pages with `deliverAttemptsPages`; the slices of a
 * rate-limited sync fetch with `fetchAttemptsSlicePage` and signal with `deliverSyncedAttempts`;
 * `summarizeAttemptsSyncRecurrences` counts the recurrences of every delivery once and lists the unknown
 * ones.
 */
export function createAttemptsSyncActivities(
  bank: BankClient,
  bankRequestsPerSecond: number | undefined,
  sink: ReportSink,
  stopping?: AbortSignal,
) {
  return {
    fetchAttemptsSlicePage: bankActivity((query: AttemptsPageQuery) => fetchSlicePage(bank, query)),
    deliverSyncedAttempts: (request: { attempts: SyncedAttempt[]; pages: number; record: DeliveryRecord }) =>
      deliverAttempts(Context.current().client, Context.current().cancellationSignal, sink, request),
    deliverAttemptsPages: bankActivity((request: AttemptsPagesDeliveryRequest) =>
      deliverAttemptsPages(bank, Context.current().client, sink, request, stopping),
    ),
    summarizeAttemptsSyncRecurrences: (prefix: string) => summarizeDeliveries(sink, prefix),
    /** The fleet's bank rate limit, which decides whether and how wide the sync runs in slices. */
    attemptsSyncPlan: async () => ({ bankRequestsPerSecond: bankRequestsPerSecond ?? null }),
  };
}

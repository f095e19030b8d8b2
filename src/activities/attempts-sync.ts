import { Context, log } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { BankClient } from '../bank/client.js';
import type { Page } from '../bank/pagination.js';
import type { CollectionAttempt } from '../bank/schemas/collection-attempt.js';
import { workflowIds } from '../workflows/ids.js';
import { recurrenceAttemptsSignal, toRecurrenceAttempt } from '../workflows/recurrence/definitions.js';
import type {
  AttemptsDelivery,
  AttemptsPageQuery,
  AttemptsPageResult,
  AttemptsPagesRequest,
  AttemptsSlicePage,
  SyncedAttempt,
  UnknownRecurrence,
} from '../workflows/sync/attempts-definitions.js';
import { bankActivity } from './failures.js';

/** Temporal's answer to a signal for a workflow that does not exist or has closed. */
const isNotFound = (error: unknown) => error instanceof WorkflowNotFoundError;

/** Attempts per signal: keeps one signal's payload near 60 KB however many attempts a batch holds. */
export const attemptsPerSignal = 250;

/** A batch stops taking pages after this long, so one local activity stays short against a slow bank. */
const batchTimeMs = 10_000;

/**
 * Signals one recurrence its attempts, in signals of at most `attemptsPerSignal`; answers how many signals went
 * out, or the recurrence as unknown when it has no workflow.
 */
async function signalRecurrence(
  client: Client,
  externalId: string,
  attempts: SyncedAttempt[],
): Promise<{ signals: number; unknown?: UnknownRecurrence }> {
  const handle = client.workflow.getHandle(workflowIds.recurrence(externalId));
  let signals = 0;
  try {
    for (let start = 0; start < attempts.length; start += attemptsPerSignal) {
      await handle.signal(recurrenceAttemptsSignal, {
        source: 'sync',
        attempts: attempts.slice(start, start + attemptsPerSignal).map((synced) => synced.attempt),
      });
      signals++;
    }
    return { signals };
  } catch (error) {
    if (!isNotFound(error) || signals > 0) throw error;
  }
  const closed = await handle.describe().then(
    () => true,
    (error: unknown) => {
      if (isNotFound(error)) return false;
      throw error;
    },
  );
  return {
    signals,
    unknown: {
      externalId,
      recurrenceId: attempts.find((synced) => synced.recurrenceId)?.recurrenceId ?? null,
      workflow: closed ? 'closed' : 'missing',
      attempts: attempts.length,
      attemptIds: attempts.map((synced) => synced.attempt.id),
    },
  };
}

/**
 * Up to `maxPages` consecutive pages of the attempts sync, then one signal per recurrence with every attempt of
 * those pages (more only past `attemptsPerSignal`): a recurrence on every page wakes once per batch, not once per
 * page. A page that fails after others were fetched ends the batch there: the fetched pages are delivered and the
 * failed page's cursor goes back as `next`, so the next call asks for it again and no page is fetched twice. A
 * retry after a failed signal fetches and signals the batch again, which the recurrence workflows take as
 * duplicates. Only counts go back into the sync's history, never the records.
 */
export async function syncAttemptsPages(
  bank: BankClient,
  client: Client,
  request: AttemptsPagesRequest,
): Promise<AttemptsPageResult> {
  const started = Date.now();
  const attempts: SyncedAttempt[] = [];
  let pages = 0;
  let next: string | null = request.query.after ?? null;
  do {
    const query = { ...request.query, ...(next ? { after: next } : {}) };
    let page: Page<CollectionAttempt>;
    try {
      page = await bank.listCollectionAttempts(query);
    } catch (error) {
      if (pages === 0) throw error;
      log.warn('attempts page failed; delivering the pages fetched before it', { pages, error });
      break;
    }
    pages++;
    attempts.push(...page.data.map(toSyncedAttempt));
    next = page.metadata.has_next ? page.metadata.after : null;
  } while (next && pages < request.maxPages && Date.now() - started < batchTimeMs);
  return { ...(await deliverAttempts(client, attempts, pages)), next };
}

function toSyncedAttempt(attempt: CollectionAttempt): SyncedAttempt {
  return {
    externalId: attempt.external_id,
    recurrenceId: attempt.recurrence_id ?? null,
    attempt: toRecurrenceAttempt(attempt),
  };
}

/**
 * Signals each recurrence the attempts of `pages` pages that concern it, once (more only past
 * `attemptsPerSignal`), and counts them; only these counts go back into the sync's history.
 */
export async function deliverAttempts(
  client: Client,
  attempts: SyncedAttempt[],
  pages: number,
): Promise<AttemptsDelivery> {
  const byRecurrence = new Map<string, SyncedAttempt[]>();
  const byStatus: Record<string, number> = {};
  for (const synced of attempts) {
    byStatus[synced.attempt.status] = (byStatus[synced.attempt.status] ?? 0) + 1;
    const group = byRecurrence.get(synced.externalId) ?? [];
    group.push(synced);
    byRecurrence.set(synced.externalId, group);
  }
  const outcomes = await Promise.all(
    [...byRecurrence].map(async ([externalId, group]) => ({
      externalId,
      ...(await signalRecurrence(client, externalId, group)),
    })),
  );
  return {
    pages,
    attempts: attempts.length,
    byStatus,
    signals: outcomes.reduce((sum, outcome) => sum + outcome.signals, 0),
    updated: outcomes.filter((outcome) => !outcome.unknown).map((outcome) => outcome.externalId),
    unknown: outcomes.flatMap((outcome) => (outcome.unknown ? [outcome.unknown] : [])),
  };
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
 * The sync's page activities; they signal through the worker's own Temporal client. `syncAttemptsPage` (one page
 * a call) serves the runs started before page batches, which go on calling it; the slices of a rate-limited sync
 * fetch with `fetchAttemptsSlicePage` and signal with `deliverSyncedAttempts`.
 */
export function createAttemptsSyncActivities(bank: BankClient, bankRequestsPerSecond: number | undefined) {
  return {
    fetchAttemptsSlicePage: bankActivity((query: AttemptsPageQuery) => fetchSlicePage(bank, query)),
    deliverSyncedAttempts: (request: { attempts: SyncedAttempt[]; pages: number }) =>
      deliverAttempts(Context.current().client, request.attempts, request.pages),
    /** The fleet's bank rate limit, which decides whether and how wide the sync runs in slices. */
    attemptsSyncPlan: async () => ({ bankRequestsPerSecond: bankRequestsPerSecond ?? null }),
    syncAttemptsPages: bankActivity((request: AttemptsPagesRequest) =>
      syncAttemptsPages(bank, Context.current().client, request),
    ),
    syncAttemptsPage: bankActivity((query: AttemptsPageQuery) =>
      syncAttemptsPages(bank, Context.current().client, { query, maxPages: 1 }),
    ),
  };
}

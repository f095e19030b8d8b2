import { Context, log } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { BankClient } from '../bank/client.js';
import type { Page } from '../bank/pagination.js';
import type { CollectionAttempt } from '../bank/schemas/collection-attempt.js';
import { workflowIds } from '../workflows/ids.js';
import { recurrenceAttemptsSignal, toRecurrenceAttempt } from '../workflows/recurrence/definitions.js';
import type {
  AttemptsPageQuery,
  AttemptsPageResult,
  AttemptsPagesRequest,
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
  attempts: CollectionAttempt[],
): Promise<{ signals: number; unknown?: UnknownRecurrence }> {
  const handle = client.workflow.getHandle(workflowIds.recurrence(externalId));
  let signals = 0;
  try {
    for (let start = 0; start < attempts.length; start += attemptsPerSignal) {
      await handle.signal(recurrenceAttemptsSignal, {
        source: 'sync',
        attempts: attempts.slice(start, start + attemptsPerSignal).map(toRecurrenceAttempt),
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
      recurrenceId: attempts.find((attempt) => attempt.recurrence_id)?.recurrence_id ?? null,
      workflow: closed ? 'closed' : 'missing',
      attempts: attempts.length,
      attemptIds: attempts.map((attempt) => attempt.id),
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
  const byRecurrence = new Map<string, CollectionAttempt[]>();
  const byStatus: Record<string, number> = {};
  let attempts = 0;
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
    attempts += page.data.length;
    for (const attempt of page.data) {
      byStatus[attempt.status] = (byStatus[attempt.status] ?? 0) + 1;
      const group = byRecurrence.get(attempt.external_id) ?? [];
      group.push(attempt);
      byRecurrence.set(attempt.external_id, group);
    }
    next = page.metadata.has_next ? page.metadata.after : null;
  } while (next && pages < request.maxPages && Date.now() - started < batchTimeMs);

  const outcomes = await Promise.all(
    [...byRecurrence].map(async ([externalId, group]) => ({
      externalId,
      ...(await signalRecurrence(client, externalId, group)),
    })),
  );
  return {
    pages,
    attempts,
    byStatus,
    signals: outcomes.reduce((sum, outcome) => sum + outcome.signals, 0),
    updated: outcomes.filter((outcome) => !outcome.unknown).map((outcome) => outcome.externalId),
    unknown: outcomes.flatMap((outcome) => (outcome.unknown ? [outcome.unknown] : [])),
    next,
  };
}

/**
 * The sync's page activities; they signal through the worker's own Temporal client. `syncAttemptsPage` (one page
 * a call) serves the runs started before page batches, which go on calling it.
 */
export function createAttemptsSyncActivities(bank: BankClient) {
  return {
    syncAttemptsPages: bankActivity((request: AttemptsPagesRequest) =>
      syncAttemptsPages(bank, Context.current().client, request),
    ),
    syncAttemptsPage: bankActivity((query: AttemptsPageQuery) =>
      syncAttemptsPages(bank, Context.current().client, { query, maxPages: 1 }),
    ),
  };
}
